// The url_row_alternates migration moves existing hreflang clusters out of the `alternates` table
// into `urls.alternates` and `pending_alternates`, then drops the table: data a plain schema diff
// never checks. This replays the migrations on an empty scratch database with rows in the old
// shape and asserts what the data migration carried over.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@sitemaps/testing';
import { PRISMA_DIR } from './migrator';

const BEFORE = ['20261122030630_init', '20261122051051_drop_row_foreign_keys'];
const MIGRATION = '20261122073839_url_row_alternates';
const migrationSql = (name: string) => readFile(path.join(PRISMA_DIR, 'migrations', name, 'migration.sql'), 'utf8');

const SITE = '00000000-0000-4000-8000-000000000001';
const A = 'https://a.example';
const link = (hreflang: string, href: string) => ({ hreflang, href });

describe('migration url_row_alternates', () => {
  let scratch: TestDatabase | undefined;
  let db: Client | undefined;

  beforeAll(async () => {
    // Empty: the migrations before this one are applied by hand, then rows, then this one.
    scratch = await createTestDatabase({ empty: true });
    db = new Client({ connectionString: scratch.url });
    await db.connect();
    for (const migration of BEFORE) await db.query(await migrationSql(migration));

    await db.query(`INSERT INTO tenants (id, name) VALUES ($1, 't')`, [SITE]);
    await db.query(
      `INSERT INTO sites (id, tenant_id, hostname, indexnow_key, updated_at) VALUES ($1, $1, 'a.example', 'k', now())`,
      [SITE],
    );
    // [loc, deleted]
    const urls: [string, boolean][] = [
      [`${A}/en`, false],
      [`${A}/solo`, false],
      [`${A}/old`, true],
      [`${A}/old-de`, false],
    ];
    for (const [loc, deleted] of urls) {
      await db.query(
        `INSERT INTO urls (site_id, loc_hash, loc, content_hash, fragment, fragment_size, deleted_at)
         VALUES ($1, sha256(convert_to($2, 'UTF8')), $2, '\\x00', '<url/>', 6, CASE WHEN $3 THEN now() END)`,
        [SITE, loc, deleted],
      );
    }
    // [cluster, href, hreflang]: one row per membership, as the old ingest wrote them.
    const members: [string, string, string][] = [
      ['main', `${A}/en`, 'en'],
      ['main', `${A}/en`, 'x-default'],
      ['main', `${A}/de`, 'de'],
      ['main', 'https://a.fr/', 'fr'],
      ['solo', `${A}/solo`, 'en'],
      ['old', `${A}/old`, 'en'],
      ['old', `${A}/old-de`, 'de'],
    ];
    for (const [cluster, href, hreflang] of members) {
      await db.query(
        `INSERT INTO alternates (site_id, cluster_key, href_hash, href, hreflang)
         VALUES ($1, sha256(convert_to($2, 'UTF8')), sha256(convert_to($3, 'UTF8')), $3, $4)`,
        [SITE, cluster, href, hreflang],
      );
    }

    await db.query(await migrationSql(MIGRATION));
  });

  afterAll(async () => {
    await db?.end();
    await scratch?.drop();
  });

  const alternatesOf = async (loc: string) =>
    (
      await db!.query<{ alternates: unknown }>('SELECT alternates FROM urls WHERE site_id = $1 AND loc = $2', [
        SITE,
        loc,
      ])
    ).rows[0]?.alternates;
  const pending = async () =>
    (
      await db!.query<{ href: string; hashed: boolean; links: unknown }>(
        `SELECT href, href_hash = sha256(convert_to(href, 'UTF8')) AS hashed, links FROM pending_alternates WHERE site_id = $1 ORDER BY href`,
        [SITE],
      )
    ).rows;

  const main = [
    link('de', `${A}/de`),
    link('en', `${A}/en`),
    link('fr', 'https://a.fr/'),
    link('x-default', `${A}/en`),
  ];
  const old = [link('de', `${A}/old-de`), link('en', `${A}/old`)];

  it('gives a live URL every member of its cluster, ordered by code', async () => {
    expect(await alternatesOf(`${A}/en`)).toEqual(main);
    expect(await alternatesOf(`${A}/old-de`)).toEqual(old);
  });

  it('gives no links to a URL alone in its cluster, nor to a soft-deleted one', async () => {
    expect(await alternatesOf(`${A}/solo`)).toBeNull();
    expect(await alternatesOf(`${A}/old`)).toBeNull();
  });

  it("keeps the links of the site's members not stored live as pending; other hosts and live URLs get none", async () => {
    // /de was never stored; /old is soft-deleted, so not live: it takes its links back if it returns.
    expect(await pending()).toEqual([
      { href: `${A}/de`, hashed: true, links: main },
      { href: `${A}/old`, hashed: true, links: old },
    ]);
  });

  it('drops the alternates table', async () => {
    expect((await db!.query(`SELECT to_regclass('public.alternates') AS t`)).rows[0].t).toBeNull();
  });
});
