// The sitemaps importer against real Postgres and a local HTTP server serving documents of the
// shapes found in the wild: yes/no and numbers spelled every way, imperfect hreflang markup,
// gzip bombs, malformed XML, BOMs and robots.txt keys spelled as Google accepts them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Pool } from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertSite, type SiteRow, useTestPool } from '@sitemaps/testing';
import { UrlImportService } from '../imports/url-import.service';
import { UrlIngestService } from '../url-ingest.service';
import { SitemapImporter, type SitemapImportLimits } from './sitemap.importer';

interface Served {
  body: Buffer;
  headers?: Record<string, string>;
}

const URLSET =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ' +
  'xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">';
const urlset = (body: string) => Buffer.from(`${URLSET}\n${body}\n</urlset>\n`);

const LIMITS: SitemapImportLimits = {
  allowPrivateAddresses: true,
  maxRedirects: 3,
  requestTimeoutMs: 20_000,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxCompressionRatio: 100,
  maxFiles: 100,
  maxDepth: 2,
  timeoutMs: 120_000,
};

describe('SitemapImporter (real Postgres, local HTTP server)', () => {
  const files = new Map<string, Served>();
  let server: http.Server;
  let base: string;
  let pool: Pool;
  let site: SiteRow;
  let imports: UrlImportService;
  const fixture = useTestPool();
  const loc = (path: string) => `https://${site.hostname}${path}`;

  beforeAll(async () => {
    pool = fixture.pool;
    server = http.createServer((request, response) => {
      const file = files.get(request.url ?? '');
      if (!file) return void response.writeHead(404).end('not found');
      response.writeHead(200, file.headers ?? { 'Content-Type': 'application/xml' }).end(file.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(async () => {
    files.clear();
    site = await insertSite(pool);
    imports = new UrlImportService(
      pool,
      new UrlIngestService(pool, async () => undefined).writer,
      async () => undefined,
    );
  });

  async function importFrom(path: string, limits: Partial<SitemapImportLimits> = {}) {
    const id = await imports.enqueue(site.id, {
      source: 'sitemaps',
      format: 'sitemap',
      mode: 'upsert',
      sourceUrl: `${base}${path}`,
    });
    const progress = await new SitemapImporter(imports, { ...LIMITS, ...limits }).run(site, id);
    const issues = async (table: string) =>
      (
        await pool.query<{ line: number; code: string; field: string; reason: string; source: string | null }>(
          `SELECT line, code, field, reason, source FROM ${table} WHERE import_id = $1 ORDER BY id`,
          [id],
        )
      ).rows;
    return { progress, rejections: await issues('import_rejections'), warnings: await issues('import_warnings') };
  }
  const stored = async (path: string) =>
    (
      await pool.query(
        'SELECT loc, lastmod, lastmod_given, changefreq, priority, videos, alternates FROM urls WHERE site_id = $1 AND loc = $2 AND deleted_at IS NULL',
        [site.id, loc(path)],
      )
    ).rows[0];

  it('reads yes/no in any case with whitespace trimmed, numbers and enumerations as the schemas spell them', async () => {
    const video = (path: string, yesNo: [string, string, string]) =>
      `<url><loc>${loc(path)}</loc><video:video><video:thumbnail_loc>https://cdn.example.com/t.jpg</video:thumbnail_loc>` +
      `<video:title>T</video:title><video:description>D</video:description><video:content_loc>https://cdn.example.com/v.mp4</video:content_loc>` +
      `<video:family_friendly>${yesNo[0]}</video:family_friendly><video:requires_subscription>${yesNo[1]}</video:requires_subscription>` +
      `<video:live>${yesNo[2]}</video:live></video:video></url>`;
    files.set('/sitemap.xml', {
      body: urlset(
        [
          video('/upper', ['YES', 'YES', 'YES']),
          video('/capital', [' Yes ', 'No', '\n no\t']),
          video('/mixed', ['yEs', 'NO', 'nO']),
          video('/unknown', ['maybe', 'true', '1']),
          `<url><loc>${loc('/scalars')}</loc><lastmod> 2026-01-02 </lastmod><changefreq> Weekly </changefreq><priority> 0.8 </priority></url>`,
          `<url><loc>${loc('/bad-scalars')}</loc><lastmod>yesterday</lastmod><changefreq>sometimes</changefreq><priority>0.5abc</priority></url>`,
          `<url><loc>${loc('/out-of-range')}</loc><priority>1.5</priority></url>`,
        ].join('\n'),
      ),
    });
    const { progress, rejections, warnings } = await importFrom('/sitemap.xml');
    expect(progress).toMatchObject({ status: 'completed', stored: 7, rejected: 0 });
    expect(rejections).toEqual([]);
    const flags = async (path: string) => {
      const [v] = (await stored(path)).videos as Record<string, unknown>[];
      return [v!.familyFriendly, v!.requiresSubscription, v!.live];
    };
    expect(await flags('/upper')).toEqual([true, true, true]);
    expect(await flags('/capital')).toEqual([true, false, false]);
    expect(await flags('/mixed')).toEqual([true, false, false]);
    // Never silently another value: unknown spellings are left unset, with a warning each.
    expect(await flags('/unknown')).toEqual([undefined, undefined, undefined]);
    expect(await stored('/scalars')).toMatchObject({ lastmod: '2026-01-02', changefreq: 'weekly', priority: 0.8 });
    // lastmod unset: the platform keeps it at the last content change, as for an entry without one.
    expect(await stored('/bad-scalars')).toMatchObject({ lastmod_given: false, changefreq: null, priority: null });
    expect(await stored('/out-of-range')).toMatchObject({ priority: null });
    expect(warnings.map((w) => [w.line, w.code, w.field])).toEqual([
      [4, 'INVALID_YES_NO', 'videos[0].familyFriendly'],
      [4, 'INVALID_YES_NO', 'videos[0].requiresSubscription'],
      [4, 'INVALID_YES_NO', 'videos[0].live'],
      [6, 'INVALID_PRIORITY', 'priority'],
      [6, 'INVALID_LASTMOD', 'lastmod'],
      [6, 'INVALID_CHANGEFREQ', 'changefreq'],
      [7, 'INVALID_PRIORITY', 'priority'],
    ]);
    expect(warnings.every((w) => w.source === `${base}/sitemap.xml` && /the page kept/.test(w.reason))).toBe(true);
    expect(progress?.warnings).toBe(7);
  });

  it('keeps pages with imperfect hreflang markup: unusable links dropped, the self link taken from the peers', async () => {
    const link = (attributes: string) => `<xhtml:link ${attributes}/>`;
    files.set('/sitemap.xml', {
      body: urlset(
        [
          // /en lists its peers but not itself; /de lists the whole cluster, /en included.
          `<url><loc>${loc('/en')}</loc>${link(`rel="alternate" hreflang="de" href="${loc('/de')}"`)}</url>`,
          `<url><loc>${loc('/de')}</loc>${link(`rel="alternate" hreflang="de" href="${loc('/de')}"`)}${link(`rel="alternate" hreflang="en" href="${loc('/en')}"`)}</url>`,
          // Links missing rel, hreflang or href, a bad code and a repeated code: dropped one by one.
          `<url><loc>${loc('/fr')}</loc>` +
            link(`rel="alternate" hreflang="fr" href="${loc('/fr')}"`) +
            link(`hreflang="it" href="${loc('/it')}"`) +
            link(`rel="alternate" href="${loc('/es')}"`) +
            link(`rel="alternate" hreflang="pt"`) +
            link(`rel="alternate" hreflang="xx-not-a-code" href="${loc('/xx')}"`) +
            link(`rel="alternate" hreflang="nl" href="${loc('/nl')}"`) +
            link(`rel="alternate" hreflang="nl" href="${loc('/nl-2')}"`) +
            // Not hreflang links at all.
            link(`rel="amphtml" href="${loc('/fr.amp')}"`) +
            '</url>',
        ].join('\n'),
      ),
    });
    const { progress, rejections, warnings } = await importFrom('/sitemap.xml');
    expect(progress).toMatchObject({ status: 'completed', stored: 3, rejected: 0 });
    expect(rejections).toEqual([]);
    const en = [
      { hreflang: 'de', href: loc('/de') },
      { hreflang: 'en', href: loc('/en') },
    ];
    expect((await stored('/en')).alternates).toEqual(en);
    expect((await stored('/de')).alternates).toEqual(en);
    expect((await stored('/fr')).alternates).toEqual([
      { hreflang: 'fr', href: loc('/fr') },
      { hreflang: 'nl', href: loc('/nl') },
    ]);
    // /en is held back until the import is read, then stored with the language /de gives it.
    expect(warnings.map((w) => [w.line, w.code, w.field])).toEqual([
      [3, 'REQUIRED_FIELD', 'link[1].rel'],
      [3, 'REQUIRED_FIELD', 'link[2].hreflang'],
      [3, 'REQUIRED_FIELD', 'link[3].href'],
      [3, 'INVALID_HREFLANG', 'alternates[1].hreflang'],
      [3, 'DUPLICATE_HREFLANG', 'alternates[3].hreflang'],
      [1, 'HREFLANG_SELF_MISSING', 'alternates'],
    ]);
  });

  it('counts IMPORT_MAX_FILE_BYTES after every decompression layer, and bounds the ratio', async () => {
    const good = urlset(`<url><loc>${loc('/good')}</loc></url>`);
    // Well-formed XML all the way: the limit, not the parser, has to stop it.
    const bomb = gzipSync(
      Buffer.concat([
        Buffer.from(`${URLSET}<url><loc>${loc('/bomb')}</loc></url>`),
        Buffer.alloc(24 * 1024 * 1024, 0x20),
        Buffer.from('</urlset>'),
      ]),
    );
    expect(bomb.length).toBeLessThan(64 * 1024);
    files.set('/index.xml', {
      body: Buffer.from(
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
          ['/good.xml.gz', '/bomb.xml.gz', '/bomb-encoded.xml.gz']
            .map((p) => `<sitemap><loc>${base}${p}</loc></sitemap>`)
            .join('') +
          '</sitemapindex>',
      ),
    });
    files.set('/good.xml.gz', { body: gzipSync(good), headers: { 'Content-Type': 'application/x-gzip' } });
    files.set('/bomb.xml.gz', { body: bomb, headers: { 'Content-Type': 'application/x-gzip' } });
    // Two layers: the .gz file, sent gzip-encoded again.
    files.set('/bomb-encoded.xml.gz', {
      body: gzipSync(bomb),
      headers: { 'Content-Type': 'application/x-gzip', 'Content-Encoding': 'gzip' },
    });

    const sized = await importFrom('/index.xml');
    expect(sized.progress).toMatchObject({ status: 'completed', stored: 1 + 2 });
    expect(sized.rejections.map((r) => [r.code, r.source])).toEqual([
      ['TOO_LARGE', `${base}/bomb.xml.gz`],
      ['TOO_LARGE', `${base}/bomb-encoded.xml.gz`],
    ]);
    expect(sized.rejections[0]!.reason).toMatch(/larger than 1,048,576 bytes uncompressed \(IMPORT_MAX_FILE_BYTES\)/);

    // Under a file limit the bomb fits in, the ratio refuses it while it expands.
    const ratio = await importFrom('/index.xml', { maxFileBytes: 64 * 1024 * 1024 });
    expect(ratio.rejections.map((r) => [r.code, r.source])).toEqual([
      ['COMPRESSION_RATIO_TOO_HIGH', `${base}/bomb.xml.gz`],
      ['COMPRESSION_RATIO_TOO_HIGH', `${base}/bomb-encoded.xml.gz`],
    ]);
  });

  it('reports malformed XML served with 200 as INVALID_XML with line and column, keeping the entries before it', async () => {
    files.set('/sitemap.xml', {
      body: urlset(
        [
          `<url><loc>${loc('/before')}</loc></url>`,
          `<url><loc>${loc('/a?x=<b>')}</loc></url>`,
          `<url><loc>${loc('/after')}</loc></url>`,
        ].join('\n'),
      ),
    });
    const { progress, rejections } = await importFrom('/sitemap.xml');
    expect(rejections).toEqual([
      {
        line: 0,
        code: 'INVALID_XML',
        field: 'sitemap',
        source: `${base}/sitemap.xml`,
        reason: expect.stringMatching(/line 4, column \d+: Unexpected close tag/),
      },
    ]);
    expect(progress).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^not well-formed XML at line 4, column \d+/),
    });
    expect(await stored('/before')).toBeDefined();
    expect(await stored('/after')).toBeUndefined();
  });

  it('follows Site-map: and the other spellings of the key Google accepts, and reads files with a BOM', async () => {
    files.set('/robots.txt', {
      body: Buffer.from(
        `\uFEFFUser-agent: *\r\nSite-map: ${base}/a.xml\r\nSITEMAP:${base}/b.xml\r\nsitemap ${base}/c.txt\r\n`,
      ),
      headers: { 'Content-Type': 'text/plain' },
    });
    files.set('/a.xml', {
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), urlset(`<url><loc>${loc('/a')}</loc></url>`)]),
    });
    files.set('/b.xml', {
      body: gzipSync(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), urlset(`<url><loc>${loc('/b')}</loc></url>`)])),
      headers: { 'Content-Encoding': 'gzip' },
    });
    files.set('/c.txt', { body: Buffer.from(`\uFEFF${loc('/c')}\n`), headers: { 'Content-Type': 'text/plain' } });
    const { progress, rejections } = await importFrom('/robots.txt');
    expect(rejections).toEqual([]);
    expect(progress).toMatchObject({ status: 'completed', stored: 3 });
    for (const path of ['/a', '/b', '/c']) expect(await stored(path), path).toBeDefined();
  });
});

describe('SitemapImporter fidelity (real Postgres, local HTTP server)', () => {
  const files = new Map<string, Served>();
  let server: http.Server;
  let base: string;
  let pool: Pool;
  let site: SiteRow;
  let imports: UrlImportService;
  const fixture = useTestPool();
  const loc = (path: string) => `https://${site.hostname}${path}`;
  const link = (hreflang: string, path: string) =>
    `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${loc(path)}"/>`;

  beforeAll(async () => {
    pool = fixture.pool;
    server = http.createServer((request, response) => {
      const file = files.get(request.url ?? '');
      if (!file) return void response.writeHead(404).end('not found');
      response.writeHead(200, file.headers ?? { 'Content-Type': 'application/xml' }).end(file.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(async () => {
    files.clear();
    site = await insertSite(pool);
    imports = new UrlImportService(
      pool,
      new UrlIngestService(pool, async () => undefined).writer,
      async () => undefined,
    );
  });

  async function importFrom(path: string) {
    const id = await imports.enqueue(site.id, {
      source: 'sitemaps',
      format: 'sitemap',
      mode: 'upsert',
      sourceUrl: `${base}${path}`,
    });
    const progress = await new SitemapImporter(imports, LIMITS).run(site, id);
    const issues = async (table: string) =>
      (
        await pool.query<{ line: number; code: string; field: string; reason: string; source: string | null }>(
          `SELECT line, code, field, reason, source FROM ${table} WHERE import_id = $1 ORDER BY id`,
          [id],
        )
      ).rows;
    return { progress, rejections: await issues('import_rejections'), warnings: await issues('import_warnings') };
  }
  const stored = async (path: string) =>
    (
      await pool.query<{ loc: string; alternates: unknown; fragment: string }>(
        'SELECT loc, alternates, fragment FROM urls WHERE site_id = $1 AND loc = $2 AND deleted_at IS NULL',
        [site.id, loc(path)],
      )
    ).rows[0];

  it('infers the language of pages that link each other but not themselves, across files', async () => {
    // en ↔ fr, neither naming itself (ultimate-sitemap-parser's hreflang fixture); de ↔ it ↔ es in
    // two files; /lonely names /other, which no page names: its language stays unknown.
    files.set('/index.xml', {
      body: Buffer.from(
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
          `<sitemap><loc>${base}/a.xml</loc></sitemap><sitemap><loc>${base}/b.xml</loc></sitemap></sitemapindex>`,
      ),
    });
    files.set('/a.xml', {
      body: urlset(
        [
          `<url><loc>${loc('/en')}</loc>${link('fr', '/fr')}</url>`,
          `<url><loc>${loc('/fr')}</loc>${link('en', '/en')}</url>`,
          `<url><loc>${loc('/de')}</loc>${link('it', '/it')}${link('es', '/es')}</url>`,
          `<url><loc>${loc('/lonely')}</loc>${link('pt', '/other')}</url>`,
        ].join('\n'),
      ),
    });
    files.set('/b.xml', {
      body: urlset(
        [
          `<url><loc>${loc('/it')}</loc>${link('de', '/de')}${link('es', '/es')}</url>`,
          `<url><loc>${loc('/es')}</loc>${link('de', '/de')}${link('it', '/it')}</url>`,
        ].join('\n'),
      ),
    });
    const { progress, rejections, warnings } = await importFrom('/index.xml');
    expect(rejections).toEqual([]);
    expect(progress).toMatchObject({ status: 'completed', stored: 6, rejected: 0 });
    const enFr = [
      { hreflang: 'en', href: loc('/en') },
      { hreflang: 'fr', href: loc('/fr') },
    ];
    expect((await stored('/en'))?.alternates).toEqual(enFr);
    expect((await stored('/fr'))?.alternates).toEqual(enFr);
    const deItEs = [
      { hreflang: 'de', href: loc('/de') },
      { hreflang: 'es', href: loc('/es') },
      { hreflang: 'it', href: loc('/it') },
    ];
    for (const path of ['/de', '/it', '/es']) expect((await stored(path))?.alternates, path).toEqual(deItEs);
    expect((await stored('/fr'))?.fragment).toContain(`hreflang="en" href="${loc('/en')}"`);
    expect((await stored('/lonely'))?.alternates).toBeNull();
    expect(warnings.map((w) => [w.line, w.code, w.source])).toEqual(
      expect.arrayContaining([
        [1, 'HREFLANG_SELF_MISSING', `${base}/a.xml`],
        [2, 'HREFLANG_SELF_MISSING', `${base}/a.xml`],
        [4, 'HREFLANG_SELF_MISSING', `${base}/a.xml`],
        [1, 'HREFLANG_SELF_MISSING', `${base}/b.xml`],
      ]),
    );
    expect(warnings.find((w) => w.line === 2 && w.source === `${base}/a.xml`)?.reason).toMatch(/"fr"/);
  });

  it('decodes ISO-8859-1, windows-1252 and UTF-16 files by their declaration or BOM', async () => {
    const declared = (encoding: string, body: string) =>
      `<?xml version="1.0" encoding="${encoding}"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</urlset>\n`;
    files.set('/latin1.xml', {
      body: Buffer.from(declared('ISO-8859-1', `<url><loc>${loc('/caf\u00e9')}</loc></url>`), 'latin1'),
    });
    // 0x80 is € in windows-1252 (and a C1 control in ISO-8859-1: WHATWG reads both as windows-1252).
    files.set('/cp1252.xml', {
      body: Buffer.concat([
        Buffer.from(declared('windows-1252', `<url><loc>${loc('/price-')}`).replace(/<\/urlset>\n$/, ''), 'latin1'),
        Buffer.from([0x80]),
        Buffer.from(`</loc></url></urlset>\n`, 'latin1'),
      ]),
    });
    const utf16 = declared('UTF-16', `<url><loc>${loc('/\u65e5\u672c')}</loc></url>`);
    files.set('/utf16le.xml', { body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16, 'utf16le')]) });
    files.set('/utf16be.xml', {
      body: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(utf16, 'utf16le').swap16()]),
    });
    files.set('/index.xml', {
      body: Buffer.from(
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
          ['/latin1.xml', '/cp1252.xml', '/utf16le.xml', '/utf16be.xml']
            .map((p) => `<sitemap><loc>${base}${p}</loc></sitemap>`)
            .join('') +
          '</sitemapindex>',
      ),
    });
    const { progress, rejections } = await importFrom('/index.xml');
    expect(rejections).toEqual([]);
    expect(progress).toMatchObject({ status: 'completed', stored: 4 });
    const locs = (await pool.query<{ loc: string }>('SELECT loc FROM urls WHERE site_id = $1 ORDER BY loc', [site.id]))
      .rows;
    expect(locs.map((r) => r.loc).sort()).toEqual(
      [loc('/caf%C3%A9'), loc('/price-%E2%82%AC'), loc('/%E6%97%A5%E6%9C%AC')].sort(),
    );
  });

  it('skips an index entry whose loc is too long, without fetching it, and notes unknown elements', async () => {
    const long = `${base}/${'x'.repeat(2_100)}.xml`;
    files.set('/index.xml', {
      body: Buffer.from(
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
          `<sitemap><loc>${long}</loc></sitemap><sitemap><loc>${base}/a.xml</loc><foo>1</foo></sitemap>` +
          '</sitemapindex>',
      ),
    });
    files.set('/a.xml', {
      body: urlset(
        [
          `<url><loc>${loc('/a')}</loc><bar>x</bar></url>`,
          `<foo>beside url</foo>`,
          `<url><loc>${loc('/b')}</loc><bar>y</bar><video:video><video:title>ignored</video:title></video:video></url>`,
        ].join('\n'),
      ),
    });
    const requested: string[] = [];
    server.on('request', (request: http.IncomingMessage) => requested.push(request.url ?? ''));
    const { progress, rejections, warnings } = await importFrom('/index.xml');
    expect(progress).toMatchObject({ status: 'completed', stored: 2 });
    expect(rejections.map((r) => [r.line, r.code, r.source])).toEqual([[1, 'LOC_TOO_LONG', `${base}/index.xml`]]);
    expect(requested.some((path) => path.startsWith('/xxx'))).toBe(false);
    expect(warnings.filter((w) => w.code === 'UNKNOWN_ELEMENT').map((w) => [w.line, w.field, w.source])).toEqual([
      [0, 'foo', `${base}/index.xml`],
      [0, 'bar', `${base}/a.xml`],
      [0, 'foo', `${base}/a.xml`],
    ]);
  });
});
