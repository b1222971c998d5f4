import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pool, PoolClient } from 'pg';
import { DEFAULT_SHARD_LIMITS } from '@sitemaps/domain';
import { insertSite, type SiteRow, useTestPool } from '@sitemaps/testing';
import { FieldArena } from '@sitemaps/data';
import { UrlBatchWriter } from './url-batch.writer';
import { prepareEntry, type PreparedEntry } from './url-entry.preparer';

// A bulk import stages each new URL's row while the previous batch is in Postgres
// (UrlBatchWriter.stage). The rows stored must be exactly those `write` builds without staging,
// whichever path each entry takes: staged, or back to the full one when the URL exists or its
// cluster turns out other than it declared.
describe('UrlBatchWriter staged rows (real Postgres)', () => {
  let pool: Pool;
  let site: SiteRow;
  const writer = new UrlBatchWriter(DEFAULT_SHARD_LIMITS);
  const now = new Date('2026-03-01T12:00:00Z');
  const loc = (path: string) => `https://${site.hostname}${path}`;

  const fixture = useTestPool();
  beforeAll(() => {
    pool = fixture.pool;
  });
  beforeEach(async () => {
    site = await insertSite(pool, { defaultChangefreq: 'weekly' });
  });

  /** Entries of every kind the writer distinguishes. */
  const rawEntries = () => [
    { loc: loc('/plain') },
    { loc: loc('/full'), lastmod: '2025-12-24T08:00:00+01:00', changefreq: 'daily', priority: 0.7 },
    {
      loc: loc('/foreign'),
      alternates: [
        { hreflang: 'de', href: 'https://shop.example.de/x' },
        { hreflang: 'en', href: loc('/foreign') },
      ],
    },
    { loc: loc('/leaves'), alternates: [] },
    // A same-host cluster declared from both sides, and a later declaration that takes /fr away
    // from /es's cluster: /es's links are then not the ones it declared.
    { loc: loc('/en'), hreflang: 'en', alternates: [{ hreflang: 'de', href: loc('/de') }] },
    { loc: loc('/de'), hreflang: 'de', alternates: [{ hreflang: 'en', href: loc('/en') }] },
    {
      loc: loc('/es'),
      hreflang: 'es',
      alternates: [
        { hreflang: 'fr', href: loc('/fr') },
        { hreflang: 'it', href: loc('/it') },
      ],
    },
    { loc: loc('/fr'), hreflang: 'fr', alternates: [{ hreflang: 'pt', href: loc('/pt') }] },
    {
      loc: loc('/fresh-news'),
      news: {
        publicationName: 'N',
        publicationLanguage: 'en',
        publicationDate: '2026-03-01T10:00:00Z',
        title: 'Fresh',
      },
    },
    {
      loc: loc('/old-news'),
      news: { publicationName: 'N', publicationLanguage: 'en', publicationDate: '2025-01-01', title: 'Old' },
    },
    {
      loc: loc('/media'),
      images: [{ loc: 'https://cdn.example.net/a.png' }],
      videos: [
        {
          thumbnailLoc: 'https://cdn.example.net/t.jpg',
          title: 'T',
          description: 'D',
          contentLoc: 'https://cdn.example.net/v.mp4',
          duration: 60,
        },
      ],
    },
    { loc: loc('/stored'), priority: 0.1 },
    { loc: loc('/awaited') },
    { loc: loc('/escaped?q=a&b=<c>') },
  ];

  const prepare = (): PreparedEntry[] =>
    rawEntries().map((raw, index) => {
      const result = prepareEntry(site, raw, index, { now });
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      return result.entry;
    });

  /** Writes in a transaction that is rolled back, and returns the rows it stored. */
  async function writeAndRead(entries: PreparedEntry[]) {
    const db: PoolClient = await pool.connect();
    try {
      await db.query('BEGIN');
      await writer.write(db, site, entries, { now });
      const { rows } = await db.query(
        `SELECT u.loc, u.section, s.ordinal AS shard_ordinal, u.lastmod, u.lastmod_at, u.lastmod_given, u.changefreq, u.priority, u.images, u.videos,
                u.news, u.alternates::text AS alternates, u.news_until, u.content_hash, u.fragment, u.fragment_size, u.ns_mask, u.created_at, u.updated_at, u.deleted_at
           FROM urls u JOIN shards s ON s.id = u.shard_id WHERE u.site_id = $1 ORDER BY u.loc`,
        [site.id],
      );
      return rows;
    } finally {
      await db.query('ROLLBACK');
      db.release();
    }
  }

  it('stores exactly the rows the writer builds itself, whichever path each entry takes', async () => {
    // Stored before the batch: /stored (so it is an update), and links waiting for /awaited.
    const before = await pool.connect();
    try {
      await before.query('BEGIN');
      const seed = [
        { loc: loc('/stored') },
        { loc: loc('/elsewhere'), hreflang: 'en', alternates: [{ hreflang: 'de', href: loc('/awaited') }] },
      ];
      await writer.write(
        before,
        site,
        seed.map((raw, i) => (prepareEntry(site, raw, i, { now }) as { entry: PreparedEntry }).entry),
        { now },
      );
      await before.query('COMMIT');
    } finally {
      before.release();
    }

    const plain = await writeAndRead(prepare());
    const arena = new FieldArena();
    const staged = prepare();
    for (const entry of staged) writer.stage(site.id, entry, now, arena);
    expect(await writeAndRead(staged)).toEqual(plain);
    expect(plain.map((row) => row.loc)).toEqual(
      expect.arrayContaining([loc('/stored'), loc('/awaited'), loc('/fresh-news')]),
    );
    expect(plain.find((row) => row.loc === loc('/awaited'))?.fragment).toContain(
      `hreflang="en" href="${loc('/elsewhere')}"`,
    );
    expect(plain.find((row) => row.loc === loc('/fresh-news'))?.section).toBe('news');
  });

  it('uses the staged bytes for new URLs whose cluster is the declared one, and only for those', async () => {
    // Staged with another instant, so a row written from its staged bytes gives itself away.
    const arena = new FieldArena();
    const staged = prepare();
    for (const entry of staged) writer.stage(site.id, entry, new Date('2020-01-01T00:00:00Z'), arena);
    const rows = await writeAndRead(staged);
    const fromStage = rows
      .filter((row) => (row.created_at as Date).toISOString() === '2020-01-01T00:00:00.000Z')
      .map((row) => row.loc);
    // /es lost /fr to a later declaration; every other URL is new and as it declared.
    expect(rows).toHaveLength(rawEntries().length);
    expect(fromStage.sort()).toEqual(
      rows
        .map((row) => row.loc as string)
        .filter((href) => href !== loc('/es'))
        .sort(),
    );
  });
});
