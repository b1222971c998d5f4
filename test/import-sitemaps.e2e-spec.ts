// Importing existing sitemaps through the real API and worker: a robots.txt naming a sitemap
// index with gzip shards, a nested index, image/video/news and hreflang clusters, served by a
// local HTTP server; then built and crawled through the public server, and compared.
import http from 'node:http';
import { waitUntil } from '@sitemaps/testing';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeUrlEntry, renderSitemapIndex, renderUrlsetFiles, type SitemapUrl } from '@sitemaps/sitemap-xml';
import { createRng, generateRawEntry } from '@sitemaps/sitemap-xml/src/testing/entry-generator';
import { readUrlsetWithSitemapPackage } from '@sitemaps/sitemap-xml/src/testing/sitemap-package.reader';
import { crawl, fetchFile, validateSitemaps } from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { createTenant, createTenantWithSite, type ApiClient } from './support/tenant';

const HOST = 'import.example.com';
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const ORIGIN = `https://${HOST}`;

interface Served {
  body: Buffer;
  headers: Record<string, string>;
}

/** A small static server standing in for the customer's site; it counts requests. */
async function startSiteServer(files: Map<string, Served>) {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    const file = files.get(request.url ?? '');
    if (!file) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, file.headers).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The entries the customer's sitemaps hold, normalized as the platform writes them. */
function sourceEntries(now: Date): SitemapUrl[] {
  const raw: Record<string, unknown>[] = [];
  for (let i = 0; i < 300; i++) {
    const cluster = ['de', 'en', 'fr'].map((lang) => ({ hreflang: lang, href: `${ORIGIN}/${lang}/p/${i}` }));
    for (const { hreflang } of cluster) {
      const entry: Record<string, unknown> = {
        loc: `${ORIGIN}/${hreflang}/p/${i}`,
        lastmod: `2026-03-${String((i % 28) + 1).padStart(2, '0')}`,
        changefreq: 'weekly',
        priority: 0.5,
        alternates: cluster,
      };
      if (i % 10 === 0)
        entry.images = [
          { loc: `https://cdn.example.com/p/${i}/front.jpg` },
          { loc: `https://cdn.example.com/p/${i}/back.jpg` },
        ];
      if (i % 25 === 0 && hreflang === 'en') entry.videos = [video(i)];
      raw.push(entry);
    }
  }
  const published = `${new Date(now.getTime() - 2 * 3_600_000).toISOString().slice(0, 19)}Z`;
  for (let i = 0; i < 50; i++) {
    raw.push({
      loc: `${ORIGIN}/news/${i}`,
      lastmod: published,
      news: {
        publicationName: 'The Import Times',
        publicationLanguage: 'en',
        publicationDate: published,
        title: `Story ${i} & more`,
      },
    });
  }
  for (let i = 0; i < 50; i++) raw.push({ loc: `${ORIGIN}/page/${i}`, lastmod: '2025-12-24T10:30:00Z', priority: 0.3 });
  return raw.map((entry) => {
    const result = normalizeUrlEntry(entry, { origin: ORIGIN });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.url;
  });
}

function video(i: number) {
  return {
    thumbnailLoc: `https://cdn.example.com/v/${i}.jpg`,
    title: `Video ${i}`,
    description: 'How it is made, in <three> "parts"',
    contentLoc: `https://cdn.example.com/v/${i}.mp4`,
    playerLoc: `https://player.example.com/v/${i}`,
    duration: 600,
    expirationDate: '2027-01-01T00:00:00Z',
    rating: 4.5,
    viewCount: 1234,
    publicationDate: '2026-01-10',
    familyFriendly: true,
    restriction: { relationship: 'allow', countries: ['DE', 'FR'] },
    platform: { relationship: 'deny', platforms: ['tv'] },
    requiresSubscription: false,
    uploader: { name: 'Maker', info: 'https://example.com/maker' },
    live: false,
    tags: ['make', 'craft'],
  };
}

const byLoc = (a: SitemapUrl, b: SitemapUrl) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0);

const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> =>
  waitUntil(what, probe, { timeoutMs, intervalMs: 200 });

async function rejectionsOf(api: ApiClient, siteId: string, importId: string) {
  return (await api.get(`/v1/sites/${siteId}/imports/${importId}/rejections?limit=1000`)).body.items as {
    line: number;
    code: string;
    field: string;
    reason: string;
    source: string | null;
  }[];
}

describe('import existing sitemaps', () => {
  const entries = sourceEntries(new Date());
  const files = new Map<string, Served>();
  let site: Awaited<ReturnType<typeof startSiteServer>>;
  let platform: Platform;
  let api: ApiClient;

  beforeAll(async () => {
    site = await startSiteServer(files);
    const [a, b, c] = renderUrlsetFiles(entries, { maxUrls: 400 });
    const xml = { 'Content-Type': 'application/xml' };
    files.set('/robots.txt', {
      body: Buffer.from(`User-agent: *\nDisallow: /admin\n\nSitemap: ${site.base}/sitemap_index.xml\n`),
      headers: { 'Content-Type': 'text/plain' },
    });
    files.set('/sitemap_index.xml', {
      body: Buffer.from(
        renderSitemapIndex(
          [`/sitemaps/a.xml.gz`, `/sitemaps/b.xml`, `/sitemaps/nested-index.xml`, `/missing.xml`].map((p) => ({
            loc: `${site.base}${p}`,
          })),
        ),
      ),
      headers: xml,
    });
    // A gzip file as many servers send it (no Content-Encoding), and one gzip-encoded in transit.
    files.set('/sitemaps/a.xml.gz', { body: gzipSync(a!.xml), headers: { 'Content-Type': 'application/x-gzip' } });
    files.set('/sitemaps/b.xml', { body: gzipSync(b!.xml), headers: { ...xml, 'Content-Encoding': 'gzip' } });
    files.set('/sitemaps/nested-index.xml', {
      body: Buffer.from(
        renderSitemapIndex([
          { loc: `${site.base}/sitemaps/c.xml.gz` },
          { loc: `${site.base}/sitemaps/deeper-index.xml` },
        ]),
      ),
      headers: xml,
    });
    files.set('/sitemaps/c.xml.gz', {
      body: gzipSync(c!.xml),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    files.set('/sitemaps/deeper-index.xml', {
      body: Buffer.from(renderSitemapIndex([{ loc: `${site.base}/sitemaps/too-deep.xml` }])),
      headers: xml,
    });

    // The bulk test's index and its 1,000 files are 1,001 files; its bombs expand past 2 MiB.
    platform = await startPlatform({
      IMPORT_ALLOW_PRIVATE_ADDRESSES: 'true',
      IMPORT_MAX_DEPTH: '2',
      IMPORT_MAX_FILES: '1001',
      IMPORT_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
    });
    ({ api } = await createTenant(platform.apiUrl, 'Importer'));
  });
  afterAll(async () => {
    await platform?.close();
    await site?.close();
  });

  it('reproduces the same entries through the public server, extensions and clusters included', async () => {
    const siteId = (await api.post('/v1/sites', { hostname: HOST })).body.id;
    const started = await api.post(`/v1/sites/${siteId}/imports/sitemaps`, { url: `${site.base}/robots.txt` });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ importId: expect.any(String), status: 'queued' });
    const importId = started.body.importId;

    const done = await until('the import to finish', async () => {
      const view = (await api.get(`/v1/sites/${siteId}/imports/${importId}`)).body;
      return view.status === 'completed' || view.status === 'failed' ? view : undefined;
    });
    expect(done).toMatchObject({
      status: 'completed',
      source: 'sitemaps',
      format: 'sitemap',
      sourceUrl: `${site.base}/robots.txt`,
      stored: entries.length,
      rejected: 2,
    });
    const rejections = await rejectionsOf(api, siteId, importId);
    expect(rejections.map((r) => [r.line, r.code, r.source])).toEqual(
      expect.arrayContaining([
        [0, 'HTTP_STATUS', `${site.base}/missing.xml`],
        [0, 'DEPTH_LIMIT', `${site.base}/sitemaps/too-deep.xml`],
      ]),
    );
    expect(site.requests).not.toContain('/sitemaps/too-deep.xml');

    // The import's change triggers a build; crawl until every URL is published.
    const crawled = await until('every imported URL to be published', async () => {
      const result = await crawl(platform.publicUrl, HOST).catch(() => undefined);
      if (!result || result.index.status !== 200 || result.shards.some((s) => s.status !== 200)) return undefined;
      const urls = (await Promise.all(result.shards.map((s) => readUrlsetWithSitemapPackage(s.xml)))).flat();
      return urls.length === entries.length ? { result, urls } : undefined;
    });
    expect(crawled.urls.sort(byLoc)).toEqual([...entries].sort(byLoc));
    const validation = await validateSitemaps([
      { name: 'sitemap.xml', data: crawled.result.index.xml },
      ...crawled.result.shards.map((s) => ({ name: s.path, data: s.body })),
    ]);
    expect(validation.status, validation.output).toBe(0);

    // Importing the same sitemaps again changes nothing.
    const again = (await api.post(`/v1/sites/${siteId}/imports/sitemaps`, { url: `${site.base}/sitemap_index.xml` }))
      .body.importId;
    const second = await until('the second import', async () => {
      const view = (await api.get(`/v1/sites/${siteId}/imports/${again}`)).body;
      return view.status === 'completed' || view.status === 'failed' ? view : undefined;
    });
    expect(second).toMatchObject({ status: 'completed', stored: entries.length, changed: 0 });
  }, 240_000);

  it('round-trips generated entries with every extension: publish, import into a second site, publish the same', async () => {
    const host = 'roundtrip.example.com';
    const origin = `https://${host}`;
    const rng = createRng(15);
    const published = `${new Date(Date.now() - 3_600_000).toISOString().slice(0, 19)}Z`;
    const raw = Array.from({ length: 300 }, (_, i) => {
      const entry = generateRawEntry(rng, origin, i);
      // The write API needs each page's own language in its cluster; the generator lists only the others.
      if (Array.isArray(entry.alternates)) entry.hreflang = 'it';
      // Fresh news, so the news block is published (an old one is not).
      if (entry.news) entry.news = { ...entry.news, publicationDate: published };
      return entry;
    });
    const publishedEntries = async (siteHost: string, count: number) =>
      until(`${siteHost} to publish ${count} URLs`, async () => {
        const result = await crawl(platform.publicUrl, siteHost).catch(() => undefined);
        if (!result || result.index.status !== 200 || result.shards.some((shard) => shard.status !== 200))
          return undefined;
        const urls = (await Promise.all(result.shards.map((shard) => readUrlsetWithSitemapPackage(shard.xml)))).flat();
        return urls.length === count ? { shards: result.shards, urls: urls.sort(byLoc) } : undefined;
      });

    const first = (await api.post('/v1/sites', { hostname: host })).body.id;
    const put = await api.put(`/v1/sites/${first}/urls`, raw);
    expect(put.status, JSON.stringify(put.body.errors?.slice(0, 3))).toBe(200);
    expect(put.body.errors).toEqual([]);
    const locs = raw
      .map(({ hreflang: _own, ...entry }) => normalizeUrlEntry(entry, { origin }))
      .map((r) => (r.ok ? r.url.loc : 'invalid'));
    expect(locs).not.toContain('invalid');
    const count = new Set(locs).size;
    const before = await publishedEntries(host, count);
    expect(before.urls.some((url) => url.videos && url.images && url.alternates)).toBe(true);
    expect(before.urls.some((url) => url.news)).toBe(true);
    const videos = before.urls.flatMap((url) => url.videos ?? []);
    for (const flag of ['familyFriendly', 'requiresSubscription', 'live'] as const) {
      expect(videos.some((video) => video[flag] === true) && videos.some((video) => video[flag] === false), flag).toBe(
        true,
      );
    }

    // The published files, served as the customer's site; the first site gives its host up.
    const paths = before.shards.map((shard, i) => `/roundtrip/shard-${i}.xml.gz`);
    before.shards.forEach((shard, i) =>
      files.set(paths[i]!, { body: shard.body, headers: { 'Content-Type': 'application/x-gzip' } }),
    );
    files.set('/roundtrip/sitemap.xml', {
      body: Buffer.from(renderSitemapIndex(paths.map((path) => ({ loc: `${site.base}${path}` })))),
      headers: { 'Content-Type': 'application/xml' },
    });
    expect((await api.delete(`/v1/sites/${first}`)).status).toBe(204);
    const second = (await api.post('/v1/sites', { hostname: host })).body.id;
    // Whatever is published next is the second site's.
    await until('the first site to be gone from the public server', async () =>
      (await fetchFile(platform.publicUrl, host, 'sitemap.xml')).status === 404 ? true : undefined,
    );
    const { importId } = (
      await api.post(`/v1/sites/${second}/imports/sitemaps`, { url: `${site.base}/roundtrip/sitemap.xml` })
    ).body;
    const done = await until('the round-trip import', async () => {
      const view = (await api.get(`/v1/sites/${second}/imports/${importId}`)).body;
      return view.status === 'completed' || view.status === 'failed' ? view : undefined;
    });
    // Our own output needs no repair: nothing rejected, nothing warned about.
    expect(done).toMatchObject({ status: 'completed', stored: count, rejected: 0, warnings: 0 });

    const after = await publishedEntries(host, count);
    expect(after.urls).toEqual(before.urls);
  }, 240_000);

  it('imports a 1,000-file index with gzip bombs, BOMs, broken links and bad XML mixed in: every good entry kept, every bad one reported', async () => {
    const host = 'bulk.example.com';
    const origin = `https://${host}`;
    const xml = { 'Content-Type': 'application/xml' };
    const urlsetOf = (urls: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${urls}</urlset>`;
    const url = (path: string, extra = '') =>
      `<url><loc>${origin}${path}</loc><lastmod>2026-05-01</lastmod>${extra}</url>`;
    // Well-formed all the way, so only the limit can stop it: 8 KiB that expand past the file limit.
    const bomb = gzipSync(Buffer.from(urlsetOf(`${url('/bomb')}${' '.repeat(2 * MAX_FILE_BYTES)}`)));
    expect(bomb.length).toBeLessThan(16 * 1024);
    // As in a cut-off file, the entries read before the limit are kept: the bomb's one, 20 times.
    const good = new Set<string>(['/bomb']);
    let storedLines = 0;
    const expected: [string, string][] = [];
    let warned = 0;
    const paths: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const kind = i % 50;
      const path = `/bulk/${i}${kind === 0 || i % 3 === 0 ? '.xml.gz' : '.xml'}`;
      paths.push(path);
      const source = `${site.base}${path}`;
      const locs = [0, 1, 2].map((n) => `/f${i}/${n}`);
      if (kind === 0) {
        files.set(path, { body: bomb, headers: { 'Content-Type': 'application/x-gzip' } });
        expected.push(['TOO_LARGE', source]);
        storedLines += 1;
        continue;
      }
      if (kind === 1) {
        expected.push(['HTTP_STATUS', source]); // not served: a broken link
        continue;
      }
      let body: string;
      if (kind === 2) {
        // An unescaped & after the first entry: it is kept, the rest of the file is not.
        body = `${urlsetOf('').replace('</urlset>', '')}${url(locs[0]!)}<url><loc>${origin}/f${i}/x?a=1&b=2</loc></url>${url(locs[1]!)}</urlset>`;
        good.add(locs[0]!);
        storedLines += 1;
        expected.push(['INVALID_XML', source]);
      } else if (kind === 3) {
        // hreflang links that do not list the page: kept, with a warning.
        body = urlsetOf(
          url(locs[0]!, `<xhtml:link rel="alternate" hreflang="de" href="${origin}/de${locs[0]}"/>`) + url(locs[1]!),
        );
        good.add(locs[0]!).add(locs[1]!);
        storedLines += 2;
        warned += 1;
      } else if (kind === 4) {
        // An entry on another host is refused; its neighbours are not.
        body = urlsetOf(url(locs[0]!) + `<url><loc>https://elsewhere.example.org/f${i}</loc></url>` + url(locs[1]!));
        good.add(locs[0]!).add(locs[1]!);
        storedLines += 2;
        expected.push(['URL_HOST_MISMATCH', source]);
      } else {
        body = urlsetOf(locs.map((loc) => url(loc)).join(''));
        for (const loc of locs) good.add(loc);
        storedLines += 3;
      }
      // Every fifth file with a BOM; gzip files as servers send them, with or without Content-Encoding.
      const bytes = Buffer.concat([Buffer.from(i % 5 === 0 ? [0xef, 0xbb, 0xbf] : []), Buffer.from(body)]);
      if (path.endsWith('.gz'))
        files.set(path, {
          body: gzipSync(bytes),
          headers: i % 2 === 0 ? { 'Content-Type': 'application/x-gzip' } : { ...xml, 'Content-Encoding': 'gzip' },
        });
      else files.set(path, { body: bytes, headers: xml });
    }
    files.set('/bulk/index.xml', {
      body: Buffer.from(renderSitemapIndex(paths.map((path) => ({ loc: `${site.base}${path}` })))),
      headers: xml,
    });

    const siteId = (await api.post('/v1/sites', { hostname: host })).body.id;
    const { importId } = (
      await api.post(`/v1/sites/${siteId}/imports/sitemaps`, { url: `${site.base}/bulk/index.xml` })
    ).body;
    const done = await until(
      'the 1,000-file import',
      async () => {
        const view = (await api.get(`/v1/sites/${siteId}/imports/${importId}`)).body;
        return view.status === 'completed' || view.status === 'failed' ? view : undefined;
      },
      180_000,
    );
    expect(done).toMatchObject({
      status: 'completed',
      stored: storedLines,
      rejected: expected.length,
      warnings: warned,
    });
    const rejections = await rejectionsOf(api, siteId, importId);
    expect(rejections.map((r) => [r.code, r.source]).sort()).toEqual([...expected].sort());
    for (const r of rejections.filter((r) => r.code === 'INVALID_XML')) expect(r.reason).toMatch(/line 1, column \d+/);
    for (const r of rejections.filter((r) => r.code === 'TOO_LARGE')) expect(r.reason).toMatch(/IMPORT_MAX_FILE_BYTES/);
    const warnings = (await api.get(`/v1/sites/${siteId}/imports/${importId}/warnings?limit=1000`)).body.items as {
      code: string;
    }[];
    expect(warnings.map((w) => w.code)).toEqual(Array(warned).fill('HREFLANG_SELF_MISSING'));

    const stored: string[] = [];
    for (let cursor: string | null = null; ;) {
      const page = (await api.get(`/v1/sites/${siteId}/urls?limit=1000${cursor ? `&cursor=${cursor}` : ''}`)).body as {
        items: { loc: string }[];
        nextCursor: string | null;
      };
      stored.push(...page.items.map((item) => item.loc));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(stored.sort()).toEqual([...good].map((path) => `${origin}${path}`).sort());
  }, 300_000);
});

describe('import existing sitemaps: address policy by default', () => {
  let platform: Platform;
  let site: Awaited<ReturnType<typeof startSiteServer>>;

  beforeAll(async () => {
    site = await startSiteServer(
      new Map([
        [
          '/sitemap.xml',
          {
            body: Buffer.from(renderUrlsetFiles([{ loc: `${ORIGIN}/x` }])[0]!.xml),
            headers: { 'Content-Type': 'application/xml' },
          },
        ],
      ]),
    );
    platform = await startPlatform();
  });
  afterAll(async () => {
    await platform?.close();
    await site?.close();
  });

  it('refuses loopback addresses, by literal and by name, without connecting', async () => {
    const { api, siteId } = await createTenantWithSite(platform.apiUrl, 'Refused', { hostname: HOST });
    for (const start of [`${site.base}/sitemap.xml`, `http://localhost:${site.port}/sitemap.xml`]) {
      const { importId } = (await api.post(`/v1/sites/${siteId}/imports/sitemaps`, { url: start })).body;
      const view = await until('the refusal', async () => {
        const body = (await api.get(`/v1/sites/${siteId}/imports/${importId}`)).body;
        return body.status === 'failed' || body.status === 'completed' ? body : undefined;
      });
      expect(view).toMatchObject({
        status: 'failed',
        stored: 0,
        error: expect.stringMatching(/private, loopback or link-local/),
      });
      expect((await rejectionsOf(api, siteId, importId)).map((r) => [r.code, r.source])).toEqual([
        ['ADDRESS_REFUSED', start],
      ]);
    }
    expect(site.requests).toEqual([]);
  }, 120_000);
});
