// The batch lookups by loc hash against the real Postgres, where the planner decides how they read:
// one probe of the hash index on loc_hash per hash, even when the statistics say the site is tiny
// (taken before it grew, as between two autovacuum passes), and only the site's rows.
import { describe, expect, it } from 'vitest';
import { locHash } from '@sitemaps/domain';
import { insertSite, useTestPool } from '@sitemaps/testing';
import { sqlLocHash } from '../copy/pg-copy';
import type { Queryable } from './url.repository';
import { UrlWriteRepository } from './url-write.repository';

const ROWS = 20_000;

describe('UrlWriteRepository lookups (real Postgres)', () => {
  const fixture = useTestPool();
  const repository = new UrlWriteRepository();

  /** `count` rows for a site at /p<from>…, every even one deleted, written as a fixture. */
  const insertRows = (siteId: string, hostname: string, from: number, count: number) =>
    fixture.pool.query(
      `INSERT INTO urls (site_id, loc_hash, loc, content_hash, fragment, fragment_size, deleted_at)
       SELECT $1, ${sqlLocHash('l')}, l, '\\x00', '<url/>', 6,
              CASE WHEN i % 2 = 0 THEN now() END
         FROM generate_series($3::int, $3::int + $4::int - 1) AS i, LATERAL (SELECT 'https://' || $2 || '/p' || i AS l) AS x`,
      [siteId, hostname, from, count],
    );

  it('probes the loc-hash index per hash when the statistics predate the site, and keeps the site’s rows', async () => {
    const { pool } = fixture;
    const big = await insertSite(pool);
    const grown = await insertSite(pool);
    // Another site under the same hostname (a second tenant's claim): same locs, other rows.
    const twin = await insertSite(pool, { hostname: grown.hostname, verificationStatus: 'pending' });
    await insertRows(big.id, big.hostname, 0, ROWS);
    await insertRows(grown.id, grown.hostname, 0, 1);
    await pool.query('ANALYZE urls');
    await insertRows(grown.id, grown.hostname, 1, ROWS);
    await insertRows(twin.id, twin.hostname, 0, 100);

    const locs = Array.from({ length: 10 }, (_, i) => `https://${grown.hostname}/p${i * 7}`);
    const live = locs.filter((_, i) => (i * 7) % 2 === 1);
    // Each loc twice, and one the site does not have (peers are asked for each once).
    const hashes = [...locs, ...locs, `https://${grown.hostname}/absent`].map(locHash);
    const packed = [Buffer.concat(hashes), Buffer.concat(hashes.slice(locs.length))];
    const lookups: { text: string; values: unknown[] }[] = [];
    const db = await pool.connect();
    const recording: Queryable = {
      query: ((text: string, values?: unknown[]) => {
        if (values?.some((value) => Buffer.isBuffer(value) && packed.some((list) => value.equals(list))))
          lookups.push({ text, values });
        return db.query(text, values);
      }) as Queryable['query'],
    };
    try {
      const existing = await repository.findExisting(recording, grown.id, hashes);
      // Deleted rows are found all the same, marked so.
      expect(Object.fromEntries([...existing].map(([hex, row]) => [hex, row.deleted]))).toEqual(
        Object.fromEntries(locs.map((l) => [locHash(l).toString('hex'), !live.includes(l)])),
      );
      const peers = await repository.findLivePeers(recording, grown.id, hashes.slice(locs.length));
      expect(peers.map((row) => row.loc).sort()).toEqual([...live].sort());

      await db.query('BEGIN');
      const deleted = await repository.softDelete(recording, {
        siteId: grown.id,
        selection: { locHashes: hashes },
        now: new Date(),
        listUpTo: 100,
      });
      expect(deleted.locs.sort()).toEqual([...live].sort());

      // Explained where the delete's temporary table exists, then undone.
      expect(lookups).toHaveLength(3);
      for (const { text, values } of lookups) {
        const plan = JSON.stringify((await db.query(`EXPLAIN (FORMAT JSON) ${text}`, values)).rows);
        expect(plan).toContain('"Index Name":"urls_loc_hash_idx"');
        expect(plan).not.toContain('urls_site_id_updated_at_idx');
        expect(plan).not.toContain('Seq Scan on urls');
        // Rechecked against its own hash: an array would be walked per row found.
        expect(plan).not.toMatch(/"(Recheck Cond|Index Cond)":"[^"]*ANY/);
      }
      await db.query('ROLLBACK');
    } finally {
      db.release();
    }
  });
});
