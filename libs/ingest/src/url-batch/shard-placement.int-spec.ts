import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pool, PoolClient } from 'pg';
import { ShardPlacementRepository } from '@sitemaps/data';
import { insertSite, type SiteRow, useTestPool } from '@sitemaps/testing';
import { UrlIngestService } from '../url-ingest.service';
import { ShardPlacement, type PlacedWrite } from './shard-placement';

// Shard placement against the real shards table: new URLs fill the last shard of their section
// and open the next, and a shard an update grew past its limits keeps its head and hands its
// tail to a new last shard.
describe('ShardPlacement (real Postgres)', () => {
  let pool: Pool;
  let site: SiteRow;
  const limits = { maxUrls: 3, maxBytes: 1_000 };
  const placement = new ShardPlacement(limits, new ShardPlacementRepository());
  const fixture = useTestPool();
  beforeAll(() => {
    pool = fixture.pool;
  });
  beforeEach(async () => {
    site = await insertSite(pool);
  });

  const shards = async () =>
    (
      await pool.query<{ id: string; section: string; ordinal: number; url_count: number; byte_size: number }>(
        'SELECT id, section, ordinal, url_count, byte_size FROM shards WHERE site_id = $1 ORDER BY section, ordinal',
        [site.id],
      )
    ).rows;

  async function inTransaction(work: (db: PoolClient) => Promise<void>) {
    const db = await pool.connect();
    try {
      await db.query('BEGIN');
      await work(db);
      await db.query('COMMIT');
    } finally {
      db.release();
    }
  }

  it('fills the last shard of a section, then creates the next, and counts what it placed', async () => {
    const writes: PlacedWrite[] = [10, 20, 30, 40, 50].map((size, i) => ({
      id: null,
      hash: Buffer.alloc(32, i),
      section: i === 4 ? 'news' : '',
      shardId: null,
      fragmentSize: size,
      needsShard: true,
      previous: null,
    }));
    await inTransaction(async (db) => {
      const deltas = await placement.place(db, site.id, writes);
      await placement.applyDeltas(db, deltas);
    });
    const stored = await shards();
    expect(stored.map((s) => [s.section, s.ordinal, s.url_count, s.byte_size])).toEqual([
      ['', 1, 3, 60],
      ['', 2, 1, 40],
      ['news', 1, 1, 50],
    ]);
    const idOf = (section: string, ordinal: number) =>
      stored.find((s) => s.section === section && s.ordinal === ordinal)?.id;
    expect(writes.map((w) => w.shardId)).toEqual([idOf('', 1), idOf('', 1), idOf('', 1), idOf('', 2), idOf('news', 1)]);
  });

  it('splits a shard an update grew past its byte limit, the tail into a new last shard', async () => {
    const ingest = new UrlIngestService(pool, async () => undefined, limits);
    const loc = (path: string) => `https://${site.hostname}${path}`;
    await ingest.upsert(
      site,
      ['/1', '/2', '/3'].map((p) => ({ loc: loc(p), lastmod: '2026-01-01T00:00:00Z' })),
    );
    const [first] = await shards();
    // An update makes /2 large: the shard now holds more than 1,000 bytes.
    await pool.query(`UPDATE urls SET fragment_size = 900 WHERE site_id = $1 AND loc = $2`, [site.id, loc('/2')]);
    await pool.query(`UPDATE shards SET byte_size = byte_size + 800 WHERE id = $1`, [first?.id]);
    await inTransaction((db) => placement.splitOversized(db, site.id, [first?.id as string]));

    const after = await shards();
    expect(after.map((s) => [s.ordinal, s.url_count])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    const { rows } = await pool.query<{ loc: string; ordinal: number }>(
      'SELECT u.loc, s.ordinal FROM urls u JOIN shards s ON s.id = u.shard_id WHERE u.site_id = $1 ORDER BY u.id',
      [site.id],
    );
    expect(rows.map((r) => [r.loc, r.ordinal])).toEqual([
      [loc('/1'), 1],
      [loc('/2'), 1],
      [loc('/3'), 2],
    ]);
    const sums = await pool.query<{ bytes: number }>(
      'SELECT coalesce(sum(fragment_size), 0)::int AS bytes FROM urls WHERE shard_id = $1',
      [after[0]?.id],
    );
    expect(after[0]?.byte_size).toBe(sums.rows[0]?.bytes);
  });
});
