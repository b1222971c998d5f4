// /sitemap.txt through the real workers: published with a build when the site enables it, the
// live URLs in shard order, split at one file's 50,000 URLs (sitemap.txt, sitemap-2.txt, …), each
// named in robots.txt, never listed in the XML index.
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, waitUntil } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { crawl, crawlFromRobots, locsOf, viaPublicServer } from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { createSite, createTenant, createTenantWithSite } from './support/tenant';

const HOST = 'text.example.net';
const url = (path: string) => `https://${HOST}${path}`;

describe('text sitemap', () => {
  let platform: Platform;
  let api: ReturnType<typeof apiClient>;
  let db: Client;
  let siteId: string;

  beforeAll(async () => {
    // Builds run only when a test asks for one.
    platform = await startPlatform({ BUILD_QUIET_MS: '600000', BUILD_MAX_WAIT_MS: '600000' });
    ({ api, siteId } = await createTenantWithSite(platform.apiUrl, 'Text', { hostname: HOST, textSitemap: true }));
    db = new Client({ connectionString: platform.db.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await platform?.close();
  });

  const publish = async () => {
    const { body } = await api.post(`/v1/sites/${siteId}/builds`, {});
    expect(await api.waitForBuild(siteId, body.buildId)).toMatchObject({ status: 'published' });
  };
  const fetchText = () => rawRequest(platform.publicUrl, '/sitemap.txt', { host: HOST });
  const putUrls = async (entries: { loc: string; section?: string }[]) => {
    for (let start = 0; start < entries.length; start += 10_000) {
      expect((await api.put(`/v1/sites/${siteId}/urls`, entries.slice(start, start + 10_000))).body.errors).toEqual([]);
    }
  };

  it('lists the live URLs in shard order, one a line, and the index lists XML files only', async () => {
    await putUrls([
      { loc: url('/blog/b'), section: 'blog' },
      { loc: url('/a') },
      { loc: url('/blog/a'), section: 'blog' },
      { loc: url('/b?x=1&y=2') },
    ]);
    await publish();
    const response = await fetchText();
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body.toString('utf8')).toBe(
      [url('/a'), url('/b?x=1&y=2'), url('/blog/b'), url('/blog/a')].join('\n') + '\n',
    );
    const { index } = await crawl(platform.publicUrl, HOST);
    expect(locsOf(index.xml).every((loc) => loc.endsWith('.xml.gz'))).toBe(true);
  });

  it('drops a deleted URL at the next publish', async () => {
    await api.delete(`/v1/sites/${siteId}/urls`, { locs: [url('/blog/b')] });
    await publish();
    expect((await fetchText()).body.toString('utf8')).toBe(
      [url('/a'), url('/b?x=1&y=2'), url('/blog/a')].join('\n') + '\n',
    );
  });

  it('stops serving it as soon as the site turns it off, and the next publish drops the file', async () => {
    expect((await api.patch(`/v1/sites/${siteId}`, { textSitemap: false })).status).toBe(200);
    // The API announces the change; public servers drop their cached settings at once.
    await waitUntil(
      'sitemap.txt to be gone after the site turned it off',
      async (seen) => seen((await fetchText()).status) === 404,
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    await publish();
    const { rows } = await db.query<{ files: Record<string, unknown> }>(
      'SELECT files FROM manifests WHERE site_id = $1',
      [siteId],
    );
    expect(Object.keys(rows[0]?.files ?? {})).not.toContain('sitemap.txt');
  });

  it('splits at 50,000 URLs, and robots.txt names every file', async () => {
    await api.patch(`/v1/sites/${siteId}`, { textSitemap: true });
    await putUrls(Array.from({ length: 50_001 }, (_, i) => ({ loc: url(`/many/${i}`) })));
    await publish();
    const lines = (await fetchText()).body.toString('utf8').split('\n');
    expect(lines).toHaveLength(50_001); // 50,000 lines, each ending in a newline
    expect(lines.at(-1)).toBe('');

    const { sitemaps, files } = await crawlFromRobots(url('/robots.txt'), viaPublicServer(platform.publicUrl));
    expect(sitemaps).toEqual([url('/sitemap.xml'), url('/sitemap.txt'), url('/sitemap-2.txt')]);
    const texts = files.filter((file) => file.kind === 'text');
    expect(texts.map((file) => [file.url, file.status, file.locs.length])).toEqual([
      [url('/sitemap.txt'), 200, 50_000],
      [url('/sitemap-2.txt'), 200, 4], // 50,001 new URLs and the three left from the tests above
    ]);
    const listed = texts.flatMap((file) => file.locs);
    expect(new Set(listed).size).toBe(50_004);
    for (const file of texts) for (const loc of file.locs) expect(loc.startsWith(`https://${HOST}/`)).toBe(true);

    await api.patch(`/v1/sites/${siteId}`, { textSitemap: false });
    await waitUntil(
      'every text file to be gone after the site turned it off',
      async (seen) => seen((await rawRequest(platform.publicUrl, '/sitemap-2.txt', { host: HOST })).status) === 404,
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    expect((await rawRequest(platform.publicUrl, '/robots.txt', { host: HOST })).body.toString()).not.toContain('.txt');
  });
});

describe('text sitemap, turned on for a published site', () => {
  let platform: Platform;
  afterAll(() => platform?.close());

  it('is published by the build the setting change triggers, with no URL change', async () => {
    platform = await startPlatform({ BUILD_QUIET_MS: '100' });
    const { api } = await createTenant(platform.apiUrl, 'Text on');
    const site = await createSite(api, { hostname: HOST });
    await api.put(`/v1/sites/${site}/urls`, [{ loc: url('/x') }, { loc: url('/y') }]);
    const { body } = await api.post(`/v1/sites/${site}/builds`, {});
    expect(await api.waitForBuild(site, body.buildId)).toMatchObject({ status: 'published' });
    expect((await rawRequest(platform.publicUrl, '/sitemap.txt', { host: HOST })).status).toBe(404);

    expect((await api.patch(`/v1/sites/${site}`, { textSitemap: true })).status).toBe(200);
    const response = await waitUntil(
      'sitemap.txt to be served again',
      async (seen) => {
        const answer = await rawRequest(platform.publicUrl, '/sitemap.txt', { host: HOST });
        return seen(answer.status) === 200 ? answer : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(response.body.toString('utf8')).toBe(`${url('/x')}\n${url('/y')}\n`);
  });
});
