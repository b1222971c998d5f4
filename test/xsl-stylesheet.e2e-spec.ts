// Sitemaps a person can read: a site that turns on `xslStylesheet` publishes an index and shards
// that name the site's sitemap.xsl; a browser shows them as a sortable table, the files stay valid
// against the XSDs, and turning it off takes the instruction out of every file again. The href is
// relative, so it finds the stylesheet whether the site is fetched by its own host or under the
// platform's `/s/<hostname>/` prefix.
import { statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITEMAP_STYLESHEET } from '@sitemaps/sitemap-xml';
import { rawRequest } from '@sitemaps/testing';
import { launchBrowser, screenshot, VIEWPORTS } from './support/browser';
import { crawl, locsOf, validateSitemaps } from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { createTenant, type ApiClient } from './support/tenant';

const SITE = 'xsl.example.com';
const PLATFORM_HOST = 'sitemaps.platform.example.net';
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const INDEX_PI = `${DECLARATION}<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>\n`;
const SHARD_PI = `${DECLARATION}<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>\n`;
/** Where the site's files are, by its own host and under the platform's prefix. */
const BASES = { host: `http://${SITE}/`, prefix: `http://${PLATFORM_HOST}/s/${SITE}/` };

/** GET of an absolute URL from the public server, as a client resolving that host to it would. */
async function get(publicUrl: string, url: URL) {
  const response = await rawRequest(publicUrl, url.pathname, { host: url.host });
  const body = response.body[0] === 0x1f && response.body[1] === 0x8b ? gunzipSync(response.body) : response.body;
  return { status: response.status, text: body.toString('utf8') };
}

function stylesheetHrefOf(xml: string): string {
  const href = /^<\?xml[^>]*\?>\n<\?xml-stylesheet type="text\/xsl" href="([^"]+)"\?>/.exec(xml)?.[1];
  expect(href, xml.slice(0, 200)).toBeDefined();
  return href as string;
}

describe('sitemaps with an XSL stylesheet', () => {
  let platform: Platform;
  let owner: ApiClient;
  let siteId: string;
  let browser: Browser | undefined;

  async function publish(): Promise<void> {
    const buildId = (await owner.post(`/v1/sites/${siteId}/builds`, {})).body.buildId as string;
    await owner.waitForBuild(siteId, buildId);
  }

  beforeAll(async () => {
    platform = await startPlatform({ PUBLIC_BASE_URL: `http://${PLATFORM_HOST}` });
    ({ api: owner } = await createTenant(platform.apiUrl, 'XSL'));
    const created = await owner.post('/v1/sites', { hostname: SITE, scheme: 'http', xslStylesheet: true });
    expect(created.status).toBe(201);
    expect(created.body.xslStylesheet).toBe(true);
    siteId = created.body.id;
    const entries = ['en', 'de', 'fr'].flatMap((language) =>
      [1, 2, 3, 4].map((n) => ({
        loc: `http://${SITE}/${language}/product-${n}`,
        lastmod: `2026-0${n}-1${n}`,
        changefreq: n % 2 ? 'weekly' : 'daily',
        priority: n / 10,
        hreflang: language,
        alternates: ['en', 'de', 'fr'].map((other) => ({
          hreflang: other,
          href: `http://${SITE}/${other}/product-${n}`,
        })),
        images: language === 'en' ? [{ loc: `http://cdn.example.com/product-${n}.jpg` }] : [],
      })),
    );
    expect((await owner.put(`/v1/sites/${siteId}/urls`, entries)).body.errors).toEqual([]);
    await publish();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  it('names the stylesheet right after the XML declaration of the index and every shard, which stay valid', async () => {
    const { index, shards } = await crawl(platform.publicUrl, SITE);
    expect(index.xml.startsWith(INDEX_PI)).toBe(true);
    expect(shards.length).toBeGreaterThan(0);
    for (const shard of shards) expect(shard.xml.startsWith(SHARD_PI)).toBe(true);
    const validation = await validateSitemaps([index, ...shards].map((file) => ({ name: file.path, data: file.body })));
    expect(validation.output).toBe('');
    expect(validation.status).toBe(0);
  });

  it('serves the stylesheet at /sitemap.xsl, with a strong ETag', async () => {
    const response = await rawRequest(platform.publicUrl, '/sitemap.xsl', { host: SITE });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/xsl; charset=utf-8');
    expect(response.body.toString()).toBe(SITEMAP_STYLESHEET);
    const again = await rawRequest(platform.publicUrl, '/sitemap.xsl', {
      host: SITE,
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(again.status).toBe(304);
  });

  it.each(Object.entries(BASES))(
    'names a stylesheet that resolves from the index and every shard, fetched by %s',
    async (_mode, base) => {
      const indexUrl = new URL('sitemap.xml', base);
      const index = await get(platform.publicUrl, indexUrl);
      expect(index.status).toBe(200);
      const fromIndex = new URL(stylesheetHrefOf(index.text), indexUrl);
      expect(fromIndex.href).toBe(`${base}sitemap.xsl`);
      expect(await get(platform.publicUrl, fromIndex)).toEqual({ status: 200, text: SITEMAP_STYLESHEET });

      const locs = locsOf(index.text);
      expect(locs.length).toBeGreaterThan(0);
      for (const loc of locs) {
        // Listed where this base serves it (the site's own host, or the platform's prefix); stored and as XML.
        expect(loc.startsWith(base)).toBe(true);
        for (const shardUrl of [new URL(loc), new URL(loc.replace(/\.gz$/, ''))]) {
          const shard = await get(platform.publicUrl, shardUrl);
          expect(shard.status).toBe(200);
          const stylesheetUrl = new URL(stylesheetHrefOf(shard.text), shardUrl);
          expect(stylesheetUrl.href).toBe(`${base}sitemap.xsl`);
          expect(await get(platform.publicUrl, stylesheetUrl)).toEqual({ status: 200, text: SITEMAP_STYLESHEET });
        }
      }
    },
  );

  it('shows a browser the index and a shard as tables it can sort (screenshots in test-artifacts)', async () => {
    const publicHost = new URL(platform.publicUrl).host;
    browser = await launchBrowser({ [SITE]: publicHost, [PLATFORM_HOST]: publicHost });
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const page = await browser.newPage({ viewport });
      await page.goto(`http://${SITE}/sitemap.xml`);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Sitemap index');
      const shardLink = page.locator('tbody a').first();
      const shardUrl = (await shardLink.getAttribute('href')) as string;
      expect(shardUrl).toMatch(new RegExp(`^http://${SITE.replace(/\./g, '\\.')}/`));
      await screenshot(page, `xsl-index-${name}`);

      await page.goto(shardUrl.replace(/\.gz$/, ''));
      await expect.poll(() => page.locator('h1').textContent()).toBe('Sitemap');
      expect(await page.locator('p.summary').textContent()).toMatch(/12 URLs, 12 with hreflang alternates, 4 images/);
      const rows = page.locator('tbody tr');
      expect(await rows.count()).toBe(12);
      const firstRow = rows.first();
      expect(await firstRow.locator('td').nth(4).locator('li').count()).toBe(3);

      // Sort by priority, descending on the second press: the 0.4 products come first.
      const priority = page.getByRole('button', { name: 'Priority' });
      await priority.click();
      await priority.click();
      expect(await page.locator('th', { has: priority }).getAttribute('aria-sort')).toBe('descending');
      expect(await rows.first().locator('td').nth(3).textContent()).toBe('0.4');
      await page.getByRole('button', { name: 'URL' }).click();
      expect(await rows.first().locator('td.loc a').textContent()).toBe(`http://${SITE}/de/product-1`);
      const file = await screenshot(page, `xsl-shard-${name}`);
      expect(statSync(file).size).toBeGreaterThan(10_000);
      await page.close();
    }
  });

  it('shows a browser the index and a shard under /s/<hostname>/ as tables too', async () => {
    const page = await (browser as Browser).newPage({ viewport: VIEWPORTS.desktop });
    await page.goto(`${BASES.prefix}sitemap.xml`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Sitemap index');
    const shardUrl = (await page.locator('tbody a').first().getAttribute('href')) as string;
    expect(shardUrl.startsWith(BASES.prefix)).toBe(true);
    await page.goto(shardUrl.replace(/\.gz$/, ''));
    await expect.poll(() => page.locator('h1').textContent()).toBe('Sitemap');
    expect(await page.locator('tbody tr').count()).toBe(12);
    await screenshot(page, 'xsl-shard-under-prefix');
    await page.close();
  });

  it('takes the instruction out of every file when the site turns it off', async () => {
    const patched = await owner.patch(`/v1/sites/${siteId}`, { xslStylesheet: false });
    expect(patched.body.xslStylesheet).toBe(false);
    await publish();
    const { index, shards } = await crawl(platform.publicUrl, SITE);
    expect(index.xml).not.toContain('xml-stylesheet');
    for (const shard of shards) expect(shard.xml).not.toContain('xml-stylesheet');
  });
});
