// The batch lookups by loc hash against the real Postgres, where the planner decides how they read:
// through the hash index on loc_hash, even when the statistics say the site is tiny (taken before
// it grew, as between two autovacuum passes), and only the site's rows.
import { describe, expect, it } from 'vitest';
import { locHash } from '@sitemaps/domain';
import { insertSite, useTestPool } from '@sitemaps/testing';
import type { Queryable } from './url.repository';
import { UrlWriteRepository } from './url-write.repository';

const ROWS = 20_000;

describe('UrlWriteRepository lookups (real Postgres)', () => {
  const fixture = useTestPool();
  const repository = new UrlWriteRepository();

  /** `count` rows for `site` at /p<from>…, written as a fixture (the ingest lib is tested elsewhere). */
  const insertRows = (siteId: string, hostname: string, from: number, count: number) =>
    fixture.pool.query(
      `INSERT INTO urls (site_id, loc_hash, loc, content_hash, fragment, fragment_size, deleted_at)
       SELECT $1, substring(sha256(convert_to(l, 'UTF8')) FROM 1 FOR 16), l, '\\x00', '<url/>', 6,
              CASE WHEN i % 2 = 0 THEN now() END
         FROM generate_series($3::int, $3::int + $4::int - 1) AS i, LATERAL (SELECT 'https://' || $2 || '/p' || i AS l) AS x`,
      [siteId, hostname, from, count],
    );

  it('reads through the loc-hash index when the statistics predate the site, and only the site’s rows', async () => {
    const { pool } = fixture;
    const big = await insertSite(pool);
    const grown = await insertSite(pool);
    // Another site under the same hostname (a second tenant's claim): same locs, other rows.
    const twin = await insertSite(pool, { hostname: grown.hostname, verificationStatus: 'pending' });
    await insertRows(big.id, big.hostname, 0, ROWS);
    await insertRows(grown.id, grown.hostname, 0, 1);
    await pool.query('ANALYZE urls');
    await insertRows(grown.id, grown.hostname, 1, ROWS);
    await insertRows(twin.id, twin.hostname, 0, 10);

    const locs = Array.from({ length: 10 }, (_, i) => `https://${grown.hostname}/p${i * 7}`);
    const hashes = [...locs.map(locHash), locHash(`https://${grown.hostname}/absent`)];
    const sent: { text: string; values: unknown[] }[] = [];
    const recording: Queryable = {
      query: ((text: string, values: unknown[]) => {
        sent.push({ text, values });
        return pool.query(text, values);
      }) as Queryable['query'],
    };

    const existing = await repository.findExisting(recording, grown.id, hashes);
    // Every other fixture row is deleted: found all the same, marked so.
    expect(Object.fromEntries([...existing].map(([hex, row]) => [hex, row.deleted]))).toEqual(
      Object.fromEntries(locs.map((l, i) => [locHash(l).toString('hex'), (i * 7) % 2 === 0])),
    );
    const peers = await repository.findLivePeers(recording, grown.id, hashes);
    expect(peers.map((row) => row.loc).sort()).toEqual(locs.filter((_, i) => (i * 7) % 2 === 1).sort());

    for (const { text, values } of sent) {
      const plan = JSON.stringify((await pool.query(`EXPLAIN (FORMAT JSON) ${text}`, values)).rows);
      expect(plan).toContain('"Index Name":"urls_loc_hash_idx"');
      expect(plan).not.toContain('urls_site_id_updated_at_idx');
      expect(plan).not.toContain('Seq Scan');
    }
  });
});
