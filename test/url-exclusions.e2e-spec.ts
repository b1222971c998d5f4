// Exclusion rules, the per-URL `excluded` flag and the conflict checks, through the real API and
// workers: what leaves the published files, what is re-rendered for it, and that the data stays.
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FRAGMENT_BYTES_PER_FILE } from '@sitemaps/domain';
import { UrlIngestService } from '@sitemaps/ingest';
import { rawRequest } from '@sitemaps/testing';
import { crawl, locsOf, type FetchedFile } from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { createTenantWithSite, type ApiClient } from './support/tenant';

const HOST = 'rules.example.com';
const url = (path: string) => `https://${HOST}${path}`;
const URLS = 20_000;
const SHARD_SIZE = 500;
/** Shards (by position, 0-based) whose even URLs are carts: 2 × 250 = 500 URLs in 2 of 40 shards. */
const CART_SHARDS = new Set([5, 23]);
const pathOf = (i: number) => (CART_SHARDS.has(Math.floor(i / SHARD_SIZE)) && i % 2 === 0 ? `/cart/${i}` : `/p/${i}`);

describe('URL exclusions', () => {
  let platform: Platform;
  let api: ApiClient;
  let key: string;
  let pool: Pool;
  let siteId: string;
  let original: { index: FetchedFile; shards: FetchedFile[] };

  const publish = async (full = false) => {
    const { body } = await api.post(`/v1/sites/${siteId}/builds`, full ? { full: true } : {});
    const build = await api.waitForBuild(siteId, body.buildId);
    expect(build).toMatchObject({ status: 'published' });
    return build as { shardsRendered: number };
  };
  const publishedLocs = async () => {
    const { shards } = await crawl(platform.publicUrl, HOST);
    return shards.flatMap((shard) => locsOf(shard.xml));
  };
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const response = await fetch(`${platform.apiUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
  };

  beforeAll(async () => {
    platform = await startPlatform({ BUILD_QUIET_MS: '600000', BUILD_MAX_WAIT_MS: '600000' });
    ({ apiKey: key, api, siteId } = await createTenantWithSite(platform.apiUrl, 'Rules', { hostname: HOST }));
    // Small shards, so that a rule's reach is a few files among many: the ingest lib with lower
    // limits (the API's are the protocol's 50,000), into the platform's database.
    pool = new Pool({ connectionString: platform.db.url });
    const ingest = new UrlIngestService(pool, async () => undefined, {
      maxUrls: SHARD_SIZE,
      maxBytes: MAX_FRAGMENT_BYTES_PER_FILE,
    });
    const site = { id: siteId, scheme: 'https', hostname: HOST, defaultChangefreq: null, defaultPriority: null };
    for (let start = 0; start < URLS; start += 2_000) {
      const entries = Array.from({ length: 2_000 }, (_, k) => ({ loc: url(pathOf(start + k)), lastmod: '2026-01-01' }));
      expect((await ingest.upsert(site, entries)).errors).toEqual([]);
    }
    await publish(true);
    original = await crawl(platform.publicUrl, HOST);
    expect(original.shards).toHaveLength(URLS / SHARD_SIZE);
  }, 300_000);
  afterAll(async () => {
    await pool?.end();
    await platform?.close();
  });

  it('a glob rule re-renders only the shards that held what it excludes; removed, the URLs come back', async () => {
    const set = await api.put(`/v1/sites/${siteId}/exclusions`, { rules: [{ kind: 'glob', pattern: '/cart/*' }] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      rules: [{ rule: { kind: 'glob', pattern: '/cart/*' }, excludedUrls: 500 }],
      changed: { urls: 500, shards: 2 },
    });
    expect((await publish()).shardsRendered).toBe(2);
    const after = await crawl(platform.publicUrl, HOST);
    const locs = after.shards.flatMap((shard) => locsOf(shard.xml));
    expect(locs).toHaveLength(URLS - 500);
    expect(locs.some((loc) => loc.includes('/cart/'))).toBe(false);
    // Every other file is the same file: same name, same bytes, so crawlers need not refetch it.
    const changedFiles = after.shards.filter(
      (shard) => original.shards.find((before) => before.path === shard.path)?.etag !== shard.etag,
    );
    expect(changedFiles).toHaveLength(2);

    // Stored, with their data, and findable.
    const excluded = await api.get(`/v1/sites/${siteId}/urls?excluded=true&limit=1000`);
    expect(excluded.body.items).toHaveLength(500);
    expect(excluded.body.items[0]).toMatchObject({ lastmod: '2026-01-01', excluded: true });
    expect(excluded.body.items.every((item: { loc: string }) => item.loc.includes('/cart/'))).toBe(true);
    const published = await api.get(
      `/v1/sites/${siteId}/urls?excluded=false&prefix=${encodeURIComponent(url('/cart/'))}`,
    );
    expect(published.body.items).toEqual([]);

    // A rule that matches nothing re-renders nothing.
    const more = await api.put(`/v1/sites/${siteId}/exclusions`, {
      rules: [
        { kind: 'glob', pattern: '/cart/*' },
        { kind: 'prefix', path: '/nothing/' },
        { kind: 'query', param: 'sessionid' },
      ],
    });
    expect(more.body.changed).toEqual({ urls: 0, shards: 0 });
    expect(more.body.rules.map((rule: { excludedUrls: number }) => rule.excludedUrls)).toEqual([500, 0, 0]);

    const cleared = await api.put(`/v1/sites/${siteId}/exclusions`, { rules: [] });
    expect(cleared.body.changed).toEqual({ urls: 500, shards: 2 });
    expect((await publish()).shardsRendered).toBe(2);
    const restored = await crawl(platform.publicUrl, HOST);
    expect(restored.shards.map((shard) => shard.xml)).toEqual(original.shards.map((shard) => shard.xml));
  }, 300_000);

  it('refuses an invalid rule, naming it', async () => {
    const refused = await api.put(`/v1/sites/${siteId}/exclusions`, {
      rules: [
        { kind: 'prefix', path: '/ok/' },
        { kind: 'prefix', path: 'no-slash' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'rules[1].path' })]);
    expect((await api.get(`/v1/sites/${siteId}/exclusions`)).body.rules).toEqual([]);
  });

  it('GraphQL sets and reads the same rules', async () => {
    const set = await gql(
      `mutation($input: SetExclusionRulesInput!) { setExclusionRules(input: $input) {
         exclusions { rules { rule { kind pattern } excludedUrls } flaggedUrls } changed { urls shards } } }`,
      { input: { siteId, rules: [{ kind: 'glob', pattern: '/cart/1*' }] } },
    );
    expect(set.errors).toBeUndefined();
    expect(set.data.setExclusionRules.exclusions.rules[0]).toMatchObject({
      rule: { kind: 'glob', pattern: '/cart/1*' },
    });
    expect(set.data.setExclusionRules.changed.urls).toBeGreaterThan(0);
    const read = await gql(`query($siteId: ID!) { exclusions(siteId: $siteId) { rules { excludedUrls } } }`, {
      siteId,
    });
    expect(read.data.exclusions.rules[0].excludedUrls).toBe(set.data.setExclusionRules.changed.urls);
    const urls = await gql(
      `query($siteId: ID!) { urls(siteId: $siteId, excluded: true, first: 5) { nodes { loc excluded } } }`,
      {
        siteId,
      },
    );
    expect(urls.data.urls.nodes[0]).toMatchObject({ excluded: true });
    await api.put(`/v1/sites/${siteId}/exclusions`, { rules: [] });
  });

  it('a flagged URL keeps its data, leaves the files and its peers’ hreflang links, and comes back', async () => {
    const cluster = ['de', 'en', 'fr'].map((lang) => ({ hreflang: lang, href: url(`/h/${lang}`) }));
    // An upsert states the whole entry: the flag goes with the rest of it.
    const entry = (lang: string, excluded?: boolean) => ({
      loc: url(`/h/${lang}`),
      hreflang: lang,
      alternates: cluster,
      priority: 0.8,
      ...(excluded === undefined ? {} : { excluded }),
    });
    expect((await api.patch(`/v1/sites/${siteId}`, { textSitemap: true })).status).toBe(200);
    const put = await api.put(`/v1/sites/${siteId}/urls`, [entry('en'), entry('de'), entry('fr')]);
    expect(put.body.errors).toEqual([]);
    await publish();
    const fragmentOf = async (loc: string) => {
      const { shards } = await crawl(platform.publicUrl, HOST);
      const xml = shards.map((shard) => shard.xml).join('');
      const start = xml.indexOf(`<url><loc>${loc}</loc>`);
      return start < 0 ? undefined : xml.slice(start, xml.indexOf('</url>', start) + '</url>'.length);
    };
    expect(await fragmentOf(url('/h/en'))).toContain(`href="${url('/h/de')}"`);

    const flag = await api.put(`/v1/sites/${siteId}/urls`, [entry('de', true)]);
    expect(flag.body).toMatchObject({ errors: [], changed: 1 });
    // Sent again as it is, it changes nothing.
    expect((await api.put(`/v1/sites/${siteId}/urls`, [entry('de', true)])).body).toMatchObject({ changed: 0 });
    await publish();
    expect(await publishedLocs()).not.toContain(url('/h/de'));
    const text = (await rawRequest(platform.publicUrl, '/sitemap.txt', { host: HOST })).body.toString();
    expect(text).toContain(`${url('/h/en')}\n`);
    expect(text).not.toContain(`${url('/h/de')}\n`);
    const en = await fragmentOf(url('/h/en'));
    expect(en).not.toContain(url('/h/de'));
    expect(en).toContain(`hreflang="fr" href="${url('/h/fr')}"`);
    expect(en).toContain(`hreflang="en" href="${url('/h/en')}"`);
    // The flagged URL itself: stored as it was, listed as excluded, exported with its flag.
    const stored = await api.get(`/v1/sites/${siteId}/urls?prefix=${encodeURIComponent(url('/h/de'))}`);
    expect(stored.body.items[0]).toMatchObject({ priority: 0.8, excluded: true, alternates: cluster });
    const exported = await fetch(`${platform.apiUrl}/v1/sites/${siteId}/urls/export`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const line = (await exported.text()).split('\n').find((text) => text.startsWith(`{"loc":"${url('/h/de')}"`));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ loc: url('/h/de'), excluded: true });

    // Alone with itself, a page has no cluster: every link goes.
    await api.put(`/v1/sites/${siteId}/urls`, [entry('fr', true)]);
    await publish();
    expect(await fragmentOf(url('/h/en'))).not.toContain('xhtml:link');

    await api.put(`/v1/sites/${siteId}/urls`, [entry('de', false), entry('fr', false)]);
    await publish();
    expect(await fragmentOf(url('/h/en'))).toContain(`href="${url('/h/de')}"`);
    expect(await publishedLocs()).toEqual(expect.arrayContaining(cluster.map((link) => link.href)));
  }, 120_000);

  it("flags the URLs the site's robots.txt disallows, on write and in the report", async () => {
    const robots = await api.patch(`/v1/sites/${siteId}`, {
      robotsTxt: 'User-agent: *\nDisallow: /private/\nAllow: /private/open$\n',
    });
    expect(robots.status).toBe(200);
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const put = await api.put(`/v1/sites/${siteId}/urls`, [
      { loc: url('/private/a') },
      { loc: url('/private/b?x=1') },
      { loc: url('/private/open') },
      { loc: url('/privateer') },
      { loc: url('/soon'), lastmod: future },
      {
        loc: url('/l/en'),
        hreflang: 'en',
        alternates: [
          { hreflang: 'en', href: url('/l/en') },
          { hreflang: 'de', href: url('/private/de') },
        ],
      },
    ]);
    expect(put.body.errors).toEqual([]);
    const warned = put.body.warnings.map((w: { index: number; code: string; field: string }) => [
      w.index,
      w.code,
      w.field,
    ]);
    expect(warned).toEqual(
      expect.arrayContaining([
        [0, 'ROBOTS_DISALLOWED', 'loc'],
        [1, 'ROBOTS_DISALLOWED', 'loc'],
        [4, 'LASTMOD_IN_FUTURE', 'lastmod'],
        [5, 'HREFLANG_TO_DISALLOWED', 'alternates[1].href'],
      ]),
    );
    expect(warned).toHaveLength(4);

    const report = await api.get(`/v1/sites/${siteId}/conflicts`);
    expect(report.status).toBe(200);
    const disallowed = report.body.conflicts
      .filter((conflict: { code: string }) => conflict.code === 'ROBOTS_DISALLOWED')
      .map((conflict: { loc: string }) => conflict.loc)
      .sort();
    expect(disallowed).toEqual([url('/private/a'), url('/private/b?x=1')]);
    expect(report.body.counts).toMatchObject({ ROBOTS_DISALLOWED: 2, LASTMOD_IN_FUTURE: 1, HREFLANG_TO_DISALLOWED: 1 });
    expect(report.body.checkedUrls).toBeGreaterThan(URLS);

    await api.patch(`/v1/sites/${siteId}`, { robotsTxt: null });
  }, 60_000);
});
