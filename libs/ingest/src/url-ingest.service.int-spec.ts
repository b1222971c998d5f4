import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { insertSite, type SiteRow, useTestPool } from '@sitemaps/testing';
import { UrlIngestService } from './url-ingest.service';

describe('UrlIngestService (real Postgres)', () => {
  let pool: Pool;
  let site: SiteRow;
  let changes: string[];
  let ingest: UrlIngestService;
  const loc = (path: string) => `https://${site.hostname}${path}`;

  const shards = async () =>
    (
      await pool.query<{
        id: string;
        section: string;
        ordinal: number;
        url_count: number;
        byte_size: number;
        dirty: boolean;
        change_seq: string;
      }>(
        'SELECT id, section, ordinal, url_count, byte_size, dirty, change_seq FROM shards WHERE site_id = $1 ORDER BY section, ordinal',
        [site.id],
      )
    ).rows;
  const row = async (path: string) =>
    (
      await pool.query<{ fragment: string; lastmod: string; shard_id: string; deleted_at: Date | null }>(
        'SELECT fragment, lastmod, shard_id, deleted_at FROM urls WHERE site_id = $1 AND loc = $2',
        [site.id, loc(path)],
      )
    ).rows[0];
  const markClean = () => pool.query('UPDATE shards SET dirty = false WHERE site_id = $1', [site.id]);

  const fixture = useTestPool();
  beforeAll(() => {
    pool = fixture.pool;
  });
  beforeEach(async () => {
    site = await insertSite(pool);
    changes = [];
    ingest = new UrlIngestService(pool, async (siteId) => void changes.push(siteId), { maxUrls: 3, maxBytes: 10_000 });
  });

  it('fills shards up to the limit and keeps their counters equal to their rows', async () => {
    const result = await ingest.upsert(
      site,
      ['/1', '/2', '/3', '/4', '/5'].map((p) => ({ loc: loc(p) })),
    );
    expect(result).toMatchObject({ upserted: 5, changed: 5, errors: [] });
    expect((await shards()).map((s) => [s.ordinal, s.url_count, s.dirty])).toEqual([
      [1, 3, true],
      [2, 2, true],
    ]);
    const sums = await pool.query(
      'SELECT shard_id, count(*)::int AS n, sum(fragment_size)::int AS bytes FROM urls WHERE site_id = $1 GROUP BY shard_id ORDER BY shard_id',
      [site.id],
    );
    expect(sums.rows.map((r) => [r.n, r.bytes])).toEqual((await shards()).map((s) => [s.url_count, s.byte_size]));
    expect(changes).toEqual([site.id]);
  });

  it('keeps sites.url_count equal to the live URLs through adds, updates, deletes and revivals', async () => {
    const counted = async () => {
      const { rows } = await pool.query<{ counter: number; live: number }>(
        `SELECT s.url_count AS counter, (SELECT count(*)::int FROM urls u WHERE u.site_id = s.id AND u.deleted_at IS NULL) AS live
           FROM sites s WHERE s.id = $1`,
        [site.id],
      );
      return rows[0];
    };
    await ingest.upsert(
      site,
      ['/1', '/2', '/3', '/4'].map((p) => ({ loc: loc(p) })),
    );
    expect(await counted()).toEqual({ counter: 4, live: 4 });
    await ingest.upsert(site, [{ loc: loc('/1'), priority: 0.5 }, { loc: loc('/5') }, { loc: loc('/5') }]);
    expect(await counted()).toEqual({ counter: 5, live: 5 });
    await ingest.delete(site, [loc('/1'), loc('/2'), loc('/nope')]);
    expect(await counted()).toEqual({ counter: 3, live: 3 });
    await ingest.upsert(site, [{ loc: loc('/1') }, { loc: loc('/6') }]);
    expect(await counted()).toEqual({ counter: 5, live: 5 });
  });

  it('changes nothing for an identical upsert: no write, no dirty shard, no build', async () => {
    await ingest.upsert(site, [{ loc: loc('/a'), changefreq: 'daily' }], new Date('2026-01-01T00:00:00Z'));
    await markClean();
    const before = await shards();
    changes = [];
    const again = await ingest.upsert(
      site,
      [{ loc: loc('/a'), changefreq: 'daily' }],
      new Date('2026-02-01T00:00:00Z'),
    );
    expect(again).toMatchObject({ upserted: 1, changed: 0 });
    expect(await shards()).toEqual(before);
    expect((await row('/a'))?.lastmod).toBeNull();
    expect(changes).toEqual([]);
  });

  it('sets lastmod to the moment content changed unless the client gives one', async () => {
    await ingest.upsert(site, [{ loc: loc('/a') }], new Date('2026-01-01T00:00:00Z'));
    // First seen without one: unknown, so none is written (not the ingest time).
    expect(await row('/a')).toMatchObject({ lastmod: null });
    expect((await row('/a'))?.fragment).not.toContain('lastmod');
    await ingest.upsert(site, [{ loc: loc('/a') }], new Date('2026-01-03T00:00:00Z'));
    expect(await row('/a')).toMatchObject({ lastmod: null });
    await ingest.upsert(site, [{ loc: loc('/a'), priority: 0.3 }], new Date('2026-01-05T10:00:00Z'));
    expect((await row('/a'))?.lastmod).toBe('2026-01-05T10:00:00Z');
    await ingest.upsert(
      site,
      [{ loc: loc('/a'), priority: 0.3, lastmod: '2025-12-24' }],
      new Date('2026-01-06T00:00:00Z'),
    );
    expect((await row('/a'))?.fragment).toContain('<lastmod>2025-12-24</lastmod>');
  });

  const pending = async () =>
    (
      await pool.query<{ href: string; links: { hreflang: string; href: string }[] }>(
        'SELECT href, links FROM pending_alternates WHERE site_id = $1 ORDER BY href',
        [site.id],
      )
    ).rows;

  it('stores a loc once when writers race to add it: the site lock keeps it unique, no index does', async () => {
    // Four writers at once, each adding the same 300 new URLs (clusters of three) and 50 of its own.
    const shared = Array.from({ length: 300 }, (_, i) => {
      const page = Math.floor(i / 3);
      const href = (lang: string) => loc(`/${lang}/p${page}`);
      const lang = ['en', 'de', 'fr'][i % 3]!;
      return {
        loc: href(lang),
        hreflang: lang,
        alternates: ['en', 'de', 'fr'].map((l) => ({ hreflang: l, href: href(l) })),
      };
    });
    const results = await Promise.all(
      [0, 1, 2, 3].map((w) =>
        ingest.upsert(site, [...shared, ...Array.from({ length: 50 }, (_, i) => ({ loc: loc(`/w${w}/${i}`) }))]),
      ),
    );
    expect(results.map((r) => r.errors)).toEqual([[], [], [], []]);
    const { rows } = await pool.query<{ rows: number; locs: number; counter: number; in_shards: number }>(
      `SELECT count(*)::int AS rows, count(DISTINCT loc)::int AS locs,
              (SELECT url_count FROM sites WHERE id = $1) AS counter,
              (SELECT sum(url_count)::int FROM shards WHERE site_id = $1) AS in_shards
         FROM urls WHERE site_id = $1`,
      [site.id],
    );
    expect(rows[0]).toEqual({ rows: 500, locs: 500, counter: 500, in_shards: 500 });
    expect(await pending()).toEqual([]);
  });

  it('keeps hreflang clusters reciprocal, including for URLs that arrive later', async () => {
    await ingest.upsert(site, [
      { loc: loc('/en'), hreflang: 'en', alternates: [{ hreflang: 'de', href: loc('/de') }] },
    ]);
    // /de is not stored yet: its links wait for it.
    expect((await pending()).map((p) => [p.href, p.links.map((l) => l.hreflang)])).toEqual([
      [loc('/de'), ['de', 'en']],
    ]);
    await ingest.upsert(site, [{ loc: loc('/de') }]);
    expect(await pending()).toEqual([]);
    for (const path of ['/en', '/de']) {
      const fragment = (await row(path))?.fragment ?? '';
      expect(fragment).toContain(`hreflang="de" href="${loc('/de')}"`);
      expect(fragment).toContain(`hreflang="en" href="${loc('/en')}"`);
    }
    // Leaving the cluster updates the peer too, and marks the peer's shard dirty.
    await markClean();
    await ingest.upsert(site, [{ loc: loc('/en'), alternates: [] }]);
    expect((await row('/de'))?.fragment).not.toContain('hreflang');
    expect((await row('/en'))?.fragment).not.toContain('hreflang');
    expect((await shards()).every((s) => s.dirty)).toBe(true);
  });

  it('writes nothing for clusters sent again as they are, and keeps a cluster an entry does not mention', async () => {
    const cluster = [
      { hreflang: 'en', href: loc('/en') },
      { hreflang: 'de', href: loc('/de') },
      { hreflang: 'fr', href: 'https://example.fr/' },
    ];
    await ingest.upsert(site, [
      { loc: loc('/en'), alternates: cluster },
      { loc: loc('/de'), alternates: cluster },
    ]);
    const stored = () =>
      pool
        .query('SELECT ctid::text, loc, alternates::text FROM urls WHERE site_id = $1 ORDER BY loc', [site.id])
        .then((r) => r.rows);
    const before = await stored();
    expect(before).toHaveLength(2);
    expect(JSON.parse(before[0].alternates)).toEqual([cluster[1], cluster[0], cluster[2]]);
    expect(
      (
        await ingest.upsert(site, [
          { loc: loc('/de'), alternates: cluster },
          { loc: loc('/en'), alternates: cluster },
        ])
      ).changed,
    ).toBe(0);
    expect(await stored()).toEqual(before);
    // No alternates field: the URL stays in its cluster and keeps its links.
    expect((await ingest.upsert(site, [{ loc: loc('/en'), priority: 0.9 }])).changed).toBe(1);
    expect((await row('/en'))?.fragment).toContain('hreflang="fr" href="https://example.fr/"');
  });

  it('gives a URL the cluster declared last in a batch, and re-renders the member that lost it', async () => {
    await ingest.upsert(site, [
      { loc: loc('/a'), hreflang: 'en', alternates: [{ hreflang: 'de', href: loc('/b') }] },
      { loc: loc('/b') },
      { loc: loc('/c'), hreflang: 'fr', alternates: [{ hreflang: 'en', href: loc('/a') }] },
    ]);
    expect((await row('/a'))?.fragment).toContain(`hreflang="fr" href="${loc('/c')}"`);
    expect((await row('/a'))?.fragment).not.toContain(loc('/b'));
    expect((await row('/c'))?.fragment).toContain(`hreflang="en" href="${loc('/a')}"`);
    // /b was only ever listed by /a's first declaration, which /c's replaced.
    expect((await row('/b'))?.fragment).not.toContain('hreflang');
  });

  it('drops the links waiting for a page when its cluster no longer names it', async () => {
    await ingest.upsert(site, [
      {
        loc: loc('/en'),
        hreflang: 'en',
        alternates: [
          { hreflang: 'de', href: loc('/de') },
          { hreflang: 'fr', href: loc('/fr') },
        ],
      },
    ]);
    expect((await pending()).map((p) => p.href)).toEqual([loc('/de'), loc('/fr')]);
    // /fr leaves: /de waits for a smaller cluster, and the stored /en is re-rendered without /fr.
    await ingest.upsert(site, [{ loc: loc('/fr'), alternates: [] }]);
    expect((await pending()).map((p) => [p.href, p.links.map((l) => l.hreflang)])).toEqual([
      [loc('/de'), ['de', 'en']],
    ]);
    expect((await row('/en'))?.fragment).not.toContain(loc('/fr'));
    expect((await row('/fr'))?.fragment).not.toContain('hreflang');
    // Deleting /en leaves /de in a cluster of one: nothing waits for it any more.
    await ingest.delete(site, [loc('/en')]);
    expect(await pending()).toEqual([]);
    await ingest.upsert(site, [{ loc: loc('/de') }]);
    expect((await row('/de'))?.fragment).not.toContain('hreflang');
  });

  it('lets clusters of different pages name the same page on another host', async () => {
    const fr = 'https://example.fr/p';
    await ingest.upsert(site, [
      { loc: loc('/a'), hreflang: 'en', alternates: [{ hreflang: 'fr', href: fr }] },
      { loc: loc('/b'), hreflang: 'en-GB', alternates: [{ hreflang: 'fr', href: fr }] },
    ]);
    for (const path of ['/a', '/b']) expect((await row(path))?.fragment).toContain(`hreflang="fr" href="${fr}"`);
    expect(await pending()).toEqual([]);
  });

  it('drops a deleted URL from its peers and frees its place in the shard', async () => {
    await ingest.upsert(site, [
      {
        loc: loc('/en'),
        alternates: [
          { hreflang: 'en', href: loc('/en') },
          { hreflang: 'fr', href: loc('/fr') },
        ],
      },
      { loc: loc('/fr') },
    ]);
    expect((await row('/fr'))?.fragment).toContain(loc('/en'));
    const result = await ingest.delete(site, [loc('/en'), loc('/nope')]);
    expect(result).toEqual({ deleted: 1, notFound: [loc('/nope')] });
    expect((await row('/en'))?.deleted_at).not.toBeNull();
    expect((await row('/fr'))?.fragment).not.toContain(loc('/en'));
    expect((await shards())[0]?.url_count).toBe(1);
  });

  it('reports invalid entries by index and stores the rest', async () => {
    const result = await ingest.upsert(site, [
      { loc: loc('/ok') },
      { loc: 'https://other.example.org/x' },
      'nope',
      { loc: loc('/x'), section: 'News!' },
    ]);
    expect(result.upserted).toBe(1);
    expect(result.errors.map((e) => [e.index, e.field, e.code])).toEqual([
      [1, 'loc', 'URL_HOST_MISMATCH'],
      [2, '', 'INVALID_TYPE'],
      [3, 'section', 'INVALID_SECTION'],
    ]);
  });

  it('gives each section its own shards and moves a URL whose section changes', async () => {
    await ingest.upsert(site, [
      { loc: loc('/p1'), section: 'products' },
      { loc: loc('/b1'), section: 'blog' },
    ]);
    expect((await shards()).map((s) => `${s.section}-${s.ordinal}:${s.url_count}`)).toEqual([
      'blog-1:1',
      'products-1:1',
    ]);
    await ingest.upsert(site, [{ loc: loc('/p1'), section: 'blog' }]);
    expect((await shards()).map((s) => `${s.section}-${s.ordinal}:${s.url_count}`)).toEqual([
      'blog-1:2',
      'products-1:0',
    ]);
  });

  it('splits a shard that an update grew past the byte limit, keeping its head in place', async () => {
    ingest = new UrlIngestService(pool, async () => undefined, { maxUrls: 50, maxBytes: 1_500 });
    await ingest.upsert(
      site,
      ['/1', '/2', '/3', '/4'].map((p) => ({ loc: loc(p) })),
    );
    const first = (await row('/1'))?.shard_id;
    const images = Array.from({ length: 8 }, (_, i) => ({ loc: loc(`/img/${i}.jpg`) }));
    await ingest.upsert(site, [
      { loc: loc('/2'), images },
      { loc: loc('/3'), images },
    ]);
    const after = await shards();
    expect(after.length).toBeGreaterThan(1);
    for (const shard of after) expect(shard.byte_size).toBeLessThanOrEqual(1_500);
    expect((await row('/1'))?.shard_id).toBe(first);
    expect(after.reduce((n, s) => n + s.url_count, 0)).toBe(4);
  });

  describe('news', () => {
    const now = new Date('2026-11-20T12:00:00Z');
    const news = (publicationDate: string) => ({
      publicationName: 'The Daily',
      publicationLanguage: 'en',
      publicationDate,
      title: 'Headline',
    });

    it('puts fresh articles in news shards of at most 1,000 URLs, with their news block', async () => {
      ingest = new UrlIngestService(pool, async () => undefined);
      const entries = Array.from({ length: 1_001 }, (_, i) => ({
        loc: loc(`/n/${i}`),
        news: news('2026-11-20T08:00:00Z'),
      }));
      expect((await ingest.upsert(site, entries, now)).errors).toEqual([]);
      expect((await shards()).map((s) => `${s.section}-${s.ordinal}:${s.url_count}`)).toEqual([
        'news-1:1000',
        'news-2:1',
      ]);
      expect((await row('/n/0'))?.fragment).toContain('<news:news><news:publication><news:name>The Daily</news:name>');
    });

    it('writes an article that is already older than two days as a plain URL', async () => {
      await ingest.upsert(site, [{ loc: loc('/old'), news: news('2026-11-17T08:00:00Z') }], now);
      expect((await shards()).map((s) => s.section)).toEqual(['']);
      expect((await row('/old'))?.fragment).not.toContain('news:');
    });

    it('moves aged-out articles to the default section on refresh, and only those', async () => {
      await ingest.upsert(
        site,
        [
          { loc: loc('/a'), news: news('2026-11-19T10:00:00Z') },
          { loc: loc('/b'), news: news('2026-11-20T11:00:00Z') },
        ],
        now,
      );
      changes = [];
      const later = new Date('2026-11-21T12:00:00Z');
      expect((await ingest.sitesWithExpiredNews(later)).map((s) => s.id)).toContain(site.id);
      expect((await ingest.sitesWithExpiredNews(now)).map((s) => s.id)).not.toContain(site.id);
      expect(await ingest.expireNews(site, later)).toBe(1);
      expect((await ingest.sitesWithExpiredNews(later)).map((s) => s.id)).not.toContain(site.id);
      expect(changes).toEqual([site.id]);
      expect((await row('/a'))?.fragment).not.toContain('news:');
      // The article did not change, its entry only left the news sitemap: no lastmod is made up.
      expect((await row('/a'))?.lastmod).toBeNull();
      expect((await row('/b'))?.fragment).toContain('<news:news>');
      expect((await shards()).map((s) => `${s.section}-${s.ordinal}:${s.url_count}`)).toEqual(['-1:1', 'news-1:1']);
      expect(await ingest.expireNews(site, later)).toBe(0);
      // The client sending the same entry again changes nothing: it is no longer news.
      expect((await ingest.upsert(site, [{ loc: loc('/a'), news: news('2026-11-19T10:00:00Z') }], later)).changed).toBe(
        0,
      );
    });
  });
});
