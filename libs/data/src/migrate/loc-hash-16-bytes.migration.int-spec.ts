// The loc_hash_16_bytes migration shortens stored loc hashes (urls.loc_hash,
// pending_alternates.href_hash) from sha256's 32 bytes to its first 16, the ones `locHash` now
// computes: data a plain schema diff never checks. This replays the migrations before it on an
// empty scratch database, stores rows as the old ingest did, runs it, and looks the rows up by
// the new hash.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'pg';
import { locHash } from '@sitemaps/domain';
import { createTestDatabase, type TestDatabase } from '@sitemaps/testing';
import { PRISMA_DIR } from './migrator';

const MIGRATION = '20261126170000_loc_hash_16_bytes';
const migrationSql = (name: string) => readFile(path.join(PRISMA_DIR, 'migrations', name, 'migration.sql'), 'utf8');

const SITE = '00000000-0000-4000-8000-000000000001';
const LOCS = ['https://a.example/en', 'https://a.example/é?q=1'];
const PENDING = 'https://a.example/de';

describe('migration loc_hash_16_bytes', () => {
  let scratch: TestDatabase | undefined;
  let db: Client | undefined;

  beforeAll(async () => {
    // Empty: the migrations before this one are applied by hand, then rows, then this one.
    scratch = await createTestDatabase({ empty: true });
    db = new Client({ connectionString: scratch.url });
    await db.connect();
    const before = (await readdir(path.join(PRISMA_DIR, 'migrations')))
      .filter((entry) => /^\d{14}_/.test(entry) && entry < MIGRATION)
      .sort();
    for (const migration of before) await db.query(await migrationSql(migration));

    await db.query(`INSERT INTO tenants (id, name) VALUES ($1, 't')`, [SITE]);
    await db.query(
      `INSERT INTO sites (id, tenant_id, hostname, indexnow_key, updated_at) VALUES ($1, $1, 'a.example', 'k', now())`,
      [SITE],
    );
    for (const loc of LOCS)
      await db.query(
        `INSERT INTO urls (site_id, loc_hash, loc, content_hash, fragment, fragment_size)
         VALUES ($1, sha256(convert_to($2, 'UTF8')), $2, '\\x00', '<url/>', 6)`,
        [SITE, loc],
      );
    await db.query(
      `INSERT INTO pending_alternates (site_id, href_hash, href, links) VALUES ($1, sha256(convert_to($2, 'UTF8')), $2, '[]')`,
      [SITE, PENDING],
    );

    await db.query(await migrationSql(MIGRATION));
  });

  afterAll(async () => {
    await db?.end();
    await scratch?.drop();
  });

  it('keys every stored URL by the hash locHash computes, through the unique index', async () => {
    const { rows } = await db!.query<{ loc: string }>(
      'SELECT loc FROM urls WHERE site_id = $1 AND loc_hash = ANY($2::bytea[]) ORDER BY loc',
      [SITE, LOCS.map(locHash)],
    );
    expect(rows.map((row) => row.loc)).toEqual([...LOCS].sort());
    const lengths = await db!.query<{ n: number }>('SELECT DISTINCT length(loc_hash) AS n FROM urls');
    expect(lengths.rows).toEqual([{ n: 16 }]);
  });

  it('keys pending links the same way', async () => {
    const { rows } = await db!.query<{ href: string }>(
      'SELECT href FROM pending_alternates WHERE site_id = $1 AND href_hash = $2',
      [SITE, locHash(PENDING)],
    );
    expect(rows).toEqual([{ href: PENDING }]);
  });

  it('still refuses a second row for the same loc', async () => {
    await expect(
      db!.query(
        `INSERT INTO urls (site_id, loc_hash, loc, content_hash, fragment, fragment_size) VALUES ($1, $2, $3, '\\x00', '<url/>', 6)`,
        [SITE, locHash(LOCS[0]!), LOCS[0]],
      ),
    ).rejects.toThrow(/urls_site_id_loc_hash_key/);
  });
});
