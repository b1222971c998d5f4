import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { createPrismaClient, ShardRepository, type PrismaClient } from '@sitemaps/data';
import { UrlIngestService } from '@sitemaps/ingest';
import { gzipUrlsetParts, gzipUrlsetStream } from '@sitemaps/sitemap-xml';
import { insertSite, useTestPool } from '@sitemaps/testing';

async function join(blocks: AsyncIterable<Buffer>): Promise<string> {
  let text = '';
  for await (const block of blocks) text += block.toString('utf8');
  return text;
}

describe('ShardRepository.snapshot, a shard read in parts (real Postgres)', () => {
  let pool: Pool;
  let prisma: PrismaClient;
  const fixture = useTestPool();
  beforeAll(() => {
    pool = fixture.pool;
    prisma = createPrismaClient(fixture.db.url);
  });
  afterAll(() => prisma.$disconnect());

  it('reads consecutive id ranges on separate connections of one snapshot, joined into the same file', async () => {
    const site = await insertSite(pool);
    const ingest = new UrlIngestService(pool, async () => undefined);
    const loc = (i: number) => `https://${site.hostname}/p/${i}`;
    await ingest.upsert(
      site,
      Array.from({ length: 40 }, (_, i) => ({ loc: loc(i) })),
    );
    await ingest.delete(site, [loc(3), loc(30)]);
    const shardId = (await pool.query<{ id: string }>('SELECT id::text FROM shards WHERE site_id = $1', [site.id]))
      .rows[0]!.id;
    const shards = new ShardRepository(prisma, pool, 10);

    const read = await shards.snapshot(shardId, async (snapshot) => {
      const head = (await snapshot.head())!;
      const whole = await join(snapshot.streamFragments());
      const parts = await snapshot.streamFragmentParts(head, 2);
      // A change committed meanwhile is not seen: both readers share the snapshot.
      await ingest.upsert(site, [{ loc: loc(100) }]);
      await ingest.delete(site, [loc(35)]);
      const meta = { urls: head.urls, bytes: Number(head.bytes), mask: head.mask };
      const texts = await Promise.all(parts.map(join));
      return { head, whole, parts: parts.length, texts, meta };
    });
    expect(read.head.urls).toBe(38);
    expect(read.parts).toBe(2);
    expect(read.texts.every((text) => text.length > 0)).toBe(true);
    expect(read.texts.join('')).toBe(read.whole);
    expect(read.whole).toContain(`<loc>${loc(35)}</loc>`);
    expect(read.whole).not.toContain(`<loc>${loc(3)}</loc>`);
    expect(read.whole).not.toContain(`<loc>${loc(100)}</loc>`);

    // One gzip member of two deflated parts: the same XML as one stream.
    const file = await shards.snapshot(shardId, async (snapshot) => {
      const head = (await snapshot.head())!;
      const meta = { urls: head.urls, bytes: Number(head.bytes), mask: head.mask };
      const split = await gzipUrlsetParts(await snapshot.streamFragmentParts(head, 2), meta);
      const single = await gzipUrlsetStream(snapshot.streamFragments(), meta);
      return { split, single };
    });
    expect(gunzipSync(file.split.gzip).toString()).toBe(gunzipSync(file.single.gzip).toString());
    expect(file.split.byteSize).toBe(file.single.byteSize);
  });

  it("heads a shard with its live URLs' totals and the newest one's lastmod as sent", async () => {
    const site = await insertSite(pool);
    const ingest = new UrlIngestService(pool, async () => undefined);
    const loc = (i: number) => `https://${site.hostname}/n/${i}`;
    await ingest.upsert(site, [
      { loc: loc(1), lastmod: '2024-03-01' },
      { loc: loc(2) },
      { loc: loc(3), lastmod: '2025-01-02T10:00:00+02:00' },
      { loc: loc(4), lastmod: '2026-01-01' },
      { loc: loc(5), lastmod: '2024-12-31' },
    ]);
    await ingest.delete(site, [loc(4)]); // the newest, gone: the next one (as stored, in UTC) heads the shard
    const shardId = (await pool.query<{ id: string }>('SELECT id::text FROM shards WHERE site_id = $1', [site.id]))
      .rows[0]!.id;
    const head = (await new ShardRepository(prisma, pool, 10).snapshot(shardId, (snapshot) => snapshot.head()))!;
    const live = await pool.query<{ bytes: string; first: string; last: string }>(
      `SELECT sum(fragment_size)::text AS bytes, min(id)::text AS first, max(id)::text AS last
         FROM urls WHERE shard_id = $1 AND deleted_at IS NULL`,
      [shardId],
    );
    expect(head).toMatchObject({ urls: 4, newest: '2025-01-02T08:00:00Z', mask: 0, xsl: false });
    expect([String(head.bytes), head.first_id, head.last_id]).toEqual([
      live.rows[0]!.bytes,
      live.rows[0]!.first,
      live.rows[0]!.last,
    ]);
  });

  it('reads a shard below the threshold on one connection', async () => {
    const site = await insertSite(pool);
    const ingest = new UrlIngestService(pool, async () => undefined);
    await ingest.upsert(site, [{ loc: `https://${site.hostname}/a` }, { loc: `https://${site.hostname}/b` }]);
    const shardId = (await pool.query<{ id: string }>('SELECT id::text FROM shards WHERE site_id = $1', [site.id]))
      .rows[0]!.id;
    const parts = await new ShardRepository(prisma, pool, 10).snapshot(
      shardId,
      async (snapshot) => (await snapshot.streamFragmentParts((await snapshot.head())!, 2)).length,
    );
    expect(parts).toBe(1);
  });
});
