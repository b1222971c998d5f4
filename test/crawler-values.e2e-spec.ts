// What crawlers read must be exactly what the site said: through the real API, worker and public
// server, a URL sent without lastmod is published without one (not with the ingest time), a
// priority of 0.55 stays 0.55, retired news tags are warned about rather than refusing the entry,
// an import of pages that name each other but not themselves keeps every hreflang link, and the
// site's sitemap.txt passes the project's validator.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSitemapFile } from '@sitemaps/sitemap-xml';
import { waitUntil } from '@sitemaps/testing';
import { crawl, fetchFile, validateSitemaps } from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { createTenant, type ApiClient } from './support/tenant';

const HOST = 'values.example.com';
const ORIGIN = `https://${HOST}`;

/** The <url> element of `loc` in a served file. */
const urlElement = (xml: string, loc: string) =>
  new RegExp(`<url><loc>${loc.replace(/[.?*+^$[\]\\(){}|-]/g, '\\$&')}</loc>.*?</url>`).exec(xml)?.[0];

describe('the values crawlers read', () => {
  let platform: Platform;
  let api: ApiClient;
  let server: http.Server;
  let base: string;
  const files = new Map<string, string>();

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const body = files.get(request.url ?? '');
      response.writeHead(body ? 200 : 404, { 'content-type': 'application/xml' }).end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    platform = await startPlatform({ IMPORT_ALLOW_PRIVATE_ADDRESSES: 'true' });
    ({ api } = await createTenant(platform.apiUrl, 'Values'));
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('publishes no lastmod for a URL sent without one, the priority as sent, and warns on retired news tags', async () => {
    const siteId = (await api.post('/v1/sites', { hostname: HOST, textSitemap: true })).body.id;
    const published = `${new Date(Date.now() - 3_600_000).toISOString().slice(0, 19)}Z`;
    const put = await api.put(`/v1/sites/${siteId}/urls`, [
      { loc: `${ORIGIN}/unknown` },
      { loc: `${ORIGIN}/given`, lastmod: '2015-06-01' },
      { loc: `${ORIGIN}/priority`, priority: 0.55 },
      { loc: `${ORIGIN}/small`, priority: 0.04 },
      {
        loc: `${ORIGIN}/article`,
        news: {
          publicationName: 'Values',
          publicationLanguage: 'en',
          publicationDate: published,
          title: 'Kept',
          keywords: 'a, b',
          genres: 'Blog',
          stockTickers: 'NASDAQ:A',
        },
      },
    ]);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ upserted: 5, errors: [] });
    expect(put.body.warnings.map((w: { field: string; code: string }) => `${w.field} ${w.code}`)).toEqual([
      'news.keywords RETIRED_TAG',
      'news.genres RETIRED_TAG',
      'news.stockTickers RETIRED_TAG',
    ]);
    const build = await api.post(`/v1/sites/${siteId}/builds`, { full: true });
    expect(await api.waitForBuild(siteId, build.body.buildId)).toMatchObject({ status: 'published' });

    const { index, shards } = await crawl(platform.publicUrl, HOST);
    const xml = shards.map((shard) => shard.xml).join('\n');
    expect(urlElement(xml, `${ORIGIN}/unknown`)).toBe(`<url><loc>${ORIGIN}/unknown</loc></url>`);
    expect(urlElement(xml, `${ORIGIN}/given`)).toContain('<lastmod>2015-06-01</lastmod>');
    expect(urlElement(xml, `${ORIGIN}/priority`)).toBe(
      `<url><loc>${ORIGIN}/priority</loc><priority>0.55</priority></url>`,
    );
    expect(urlElement(xml, `${ORIGIN}/small`)).toContain('<priority>0.04</priority>');
    expect(urlElement(xml, `${ORIGIN}/article`)).toContain('<news:title>Kept</news:title>');
    expect(xml).not.toMatch(/keywords|genres|stock_tickers/);
    const validation = await validateSitemaps([
      { name: 'sitemap.xml', data: index.xml },
      ...shards.map((shard) => ({ name: shard.path, data: shard.body })),
    ]);
    expect(validation.status, validation.output).toBe(0);

    // The text sitemap the platform serves is a sitemap to its own validator.
    const text = await fetchFile(platform.publicUrl, HOST, 'sitemap.txt');
    expect(text.status).toBe(200);
    const report = await validateSitemapFile('sitemap.txt', text.body, { url: `${ORIGIN}/sitemap.txt` });
    expect(report).toMatchObject({ kind: 'text', entries: 5, problems: [] });
  }, 180_000);

  it('keeps every hreflang link of an imported sitemap whose pages name each other but not themselves', async () => {
    const host = 'mutual.example.com';
    const origin = `https://${host}`;
    const link = (hreflang: string, path: string) =>
      `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${origin}${path}"/>`;
    files.set(
      '/sitemap.xml',
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
        `<url><loc>${origin}/en/</loc>${link('fr', '/fr/')}</url>\n` +
        `<url><loc>${origin}/fr/</loc>${link('en', '/en/')}</url>\n` +
        '</urlset>\n',
    );
    const siteId = (await api.post('/v1/sites', { hostname: host })).body.id;
    const importId = (await api.post(`/v1/sites/${siteId}/imports/sitemaps`, { url: `${base}/sitemap.xml` })).body
      .importId;
    const done = await waitUntil(
      'the import to finish',
      async () => {
        const view = (await api.get(`/v1/sites/${siteId}/imports/${importId}`)).body;
        return view.status === 'completed' || view.status === 'failed' ? view : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    expect(done).toMatchObject({ status: 'completed', stored: 2, rejected: 0 });

    const links = [link('en', '/en/'), link('fr', '/fr/')].join('');
    const served = await waitUntil(
      'both pages to be published with their links',
      async () => {
        const result = await crawl(platform.publicUrl, host).catch(() => undefined);
        const xml = result?.shards.map((shard) => shard.xml).join('\n') ?? '';
        return xml.includes(`<loc>${origin}/en/</loc>`) && xml.includes(`<loc>${origin}/fr/</loc>`) ? xml : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    expect(urlElement(served, `${origin}/en/`)).toBe(`<url><loc>${origin}/en/</loc>${links}</url>`);
    expect(urlElement(served, `${origin}/fr/`)).toBe(`<url><loc>${origin}/fr/</loc>${links}</url>`);
  }, 180_000);
});
