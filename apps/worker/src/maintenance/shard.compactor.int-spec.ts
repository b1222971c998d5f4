import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { createPrismaClient, ShardRepository, type PrismaClient } from '@sitemaps/data';
import { UrlIngestService } from '@sitemaps/ingest';
import { insertSite, useTestPool } from '@sitemaps/testing';
import { ShardCompactor } from './shard.compactor';

describe('ShardCompactor (real Postgres)', () => {
  let pool: Pool;
  let prisma: PrismaClient;
  const limits = { maxUrls: 10, maxBytes: 1_000_000 };

  const fixture = useTestPool();
  beforeAll(() => {
    pool = fixture.pool;
    prisma = createPrismaClient(fixture.db.url);
  });
  afterAll(() => prisma.$disconnect());

  it('merges under-filled neighbours of a section and leaves the others alone', async () => {
    const site = await insertSite(pool);
    const ingest = new UrlIngestService(pool, async () => undefined, limits);
    const loc = (i: number) => `https://${site.hostname}/p/${i}`;
    await ingest.upsert(
      site,
      Array.from({ length: 40 }, (_, i) => ({ loc: loc(i) })),
    );
    // Shards 1-4 hold 10 URLs each; empty most of shards 2 and 3.
    await ingest.delete(site, [
      ...Array.from({ length: 8 }, (_, i) => loc(10 + i)),
      ...Array.from({ length: 7 }, (_, i) => loc(20 + i)),
    ]);
    await pool.query('UPDATE shards SET dirty = false WHERE site_id = $1', [site.id]);

    expect(await new ShardCompactor(new ShardRepository(prisma, pool), limits).compact(site.id)).toBe(1);
    const shards = await pool.query<{ ordinal: number; url_count: number; dirty: boolean; live: number }>(
      `SELECT s.ordinal, s.url_count, s.dirty, (SELECT count(*)::int FROM urls u WHERE u.shard_id = s.id AND u.deleted_at IS NULL) AS live
         FROM shards s WHERE site_id = $1 ORDER BY ordinal`,
      [site.id],
    );
    expect(shards.rows.map((s) => [s.ordinal, s.url_count, s.live, s.dirty])).toEqual([
      [1, 10, 10, false],
      [2, 5, 5, true],
      [3, 0, 0, true],
      [4, 10, 10, false],
    ]);
    // Nothing left to merge: a second pass changes nothing.
    expect(await new ShardCompactor(new ShardRepository(prisma, pool), limits).compact(site.id)).toBe(0);
  });
});
