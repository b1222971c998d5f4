// The public server as crawlers meet it: real Postgres, real Redis, the app listening on a port.
import net, { type AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import robotsParser from 'robots-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@sitemaps/config';
import { createPgPool, createPrismaClient, type PrismaClient } from '@sitemaps/data';
import type { Pool } from 'pg';
import { formatProblem, validateSitemapFile } from '@sitemaps/sitemap-xml';
import { createBlobStore, type BlobStore } from '@sitemaps/storage';
import { ManifestReader, manifestChannel, publishManifestChanged, type ManifestAnnouncements } from '@sitemaps/serving';
import {
  createTestDatabase,
  rawRequest,
  testRedisUrl,
  uniqueQueuePrefix,
  type RawResponse,
  type TestDatabase,
} from '@sitemaps/testing';
import { createPublicApp } from './public.app';
import { createSite, publishSite, sitemapIndexXml, storeXml, switchManifest } from './testing/public.factory';

const PLATFORM_HOST = '127.0.0.1';

describe('public server', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let pool: Pool;
  let store: BlobStore;
  let redis: Redis;
  let announcements: ManifestAnnouncements;
  let app: NestFastifyApplication;
  let base: string;
  let port: number;
  let site: Awaited<ReturnType<typeof publishSite>>;
  const host = 'www.example.com';

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = parseConfig({
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      // Announcements on a channel of this test's own.
      QUEUE_PREFIX: uniqueQueuePrefix('public'),
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: `http://${PLATFORM_HOST}`,
    });
    prisma = createPrismaClient(config.databaseUrl);
    pool = createPgPool(config.databaseUrl);
    store = createBlobStore(config.storage, prisma, pool);
    redis = new Redis(config.redisUrl);
    announcements = { redis, channel: manifestChannel(config.queuePrefix) };
    site = await publishSite(prisma, store, host);
    app = await createPublicApp(config);
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
    base = `http://${PLATFORM_HOST}:${port}`;
  });
  afterAll(async () => {
    await app?.close();
    redis?.disconnect();
    await prisma?.$disconnect();
    await pool?.end();
    await db?.drop();
  });

  /** Raw HTTP (not fetch: fetch cannot set Host, normalises `..` away and decompresses bodies). */
  function send(
    rawPath: string,
    opts: { host?: string; method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<RawResponse> {
    return rawRequest(`http://127.0.0.1:${port}`, rawPath, { ...opts, host: opts.host ?? host });
  }

  /** `valid <root element>`, or the problems the project's validator finds. */
  async function validate(name: string, body: Buffer): Promise<string> {
    const report = await validateSitemapFile(name, body);
    return report.problems.length === 0 ? `valid ${report.kind}` : report.problems.map(formatProblem).join('\n');
  }

  describe('sitemap index', () => {
    it('is served decompressed to a client that does not accept gzip', async () => {
      const response = await send('/sitemap.xml');
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({
        'content-type': 'application/xml; charset=utf-8',
        etag: `"${site.index.file.sha256}-identity"`,
        vary: 'Accept-Encoding',
        'x-robots-tag': 'noindex',
        'cache-control': 'public, max-age=300',
        'content-length': String(site.index.file.byteSize),
      });
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(new Date(response.headers['last-modified'] ?? '').getTime()).not.toBeNaN();
      expect(response.body.toString()).toBe(site.index.xml);
      expect(await validate('index.xml', response.body)).toContain('valid sitemapindex');
    });

    it('is served as stored, gzip-encoded, to a client that accepts gzip', async () => {
      const response = await send('/sitemap.xml', { headers: { 'accept-encoding': 'br;q=1, gzip;q=0.8' } });
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({
        'content-type': 'application/xml; charset=utf-8',
        'content-encoding': 'gzip',
        vary: 'Accept-Encoding',
        etag: `"${site.index.file.sha256}"`,
      });
      expect(response.body).toEqual(site.index.gzip);
      expect(gunzipSync(response.body).toString()).toBe(site.index.xml);
    });

    it('is not gzip-encoded when the client refuses gzip with q=0', async () => {
      const response = await send('/sitemap.xml', { headers: { 'accept-encoding': '*, gzip;q=0' } });
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body.toString()).toBe(site.index.xml);
    });

    it('routes by Host regardless of case and port', async () => {
      const response = await send('/sitemap.xml', { host: 'WWW.Example.COM:8443' });
      expect(response.status).toBe(200);
      expect(response.body.toString()).toBe(site.index.xml);
    });
  });

  describe('shards', () => {
    it('serves the stored gzip bytes at the listed path', async () => {
      const response = await send('/sitemap-1.xml.gz', { headers: { 'accept-encoding': 'gzip' } });
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({
        'content-type': 'application/gzip',
        etag: `"${site.shard.file.sha256}"`,
        'x-robots-tag': 'noindex',
        'content-length': String(site.shard.file.gzipSize),
      });
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary).toBeUndefined();
      expect(response.body).toEqual(site.shard.gzip);
      expect(await validate('sitemap-1.xml.gz', response.body)).toContain('valid urlset');
    });

    it('serves the same shard without .gz like the index', async () => {
      const response = await send('/sitemap-1.xml');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(response.headers.etag).toBe(`"${site.shard.file.sha256}-identity"`);
      expect(response.body.toString()).toBe(site.shard.xml);
    });

    it('answers 404 for paths the manifest does not list', async () => {
      for (const missing of ['/', '/sitemap-2.xml.gz', '/sitemap.xml.gz', '/sitemaps/', '/constructor', '/__proto__']) {
        const response = await send(missing);
        expect([missing, response.status]).toEqual([missing, 404]);
      }
    });
  });

  describe('conditional requests and methods', () => {
    it('answers 304 to a matching If-None-Match, with the validators and no body', async () => {
      const first = await send('/sitemap-1.xml.gz');
      for (const tag of [first.headers.etag ?? '', `"nope", ${first.headers.etag}`, `W/${first.headers.etag}`, '*']) {
        const response = await send('/sitemap-1.xml.gz', { headers: { 'if-none-match': tag } });
        expect([tag, response.status]).toEqual([tag, 304]);
        expect(response.headers.etag).toBe(first.headers.etag);
        expect(response.headers['last-modified']).toBe(first.headers['last-modified']);
        expect(response.body.length).toBe(0);
      }
    });

    it('keeps the variants apart: the gzip ETag does not validate the decompressed representation', async () => {
      const response = await send('/sitemap.xml', { headers: { 'if-none-match': `"${site.index.file.sha256}"` } });
      expect(response.status).toBe(200);
    });

    it('answers 304 to If-Modified-Since at or after Last-Modified, unless If-None-Match disagrees', async () => {
      const first = await send('/sitemap.xml');
      const lastModified = first.headers['last-modified'] ?? '';
      expect((await send('/sitemap.xml', { headers: { 'if-modified-since': lastModified } })).status).toBe(304);
      const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
      expect((await send('/sitemap.xml', { headers: { 'if-modified-since': earlier } })).status).toBe(200);
      expect((await send('/sitemap.xml', { headers: { 'if-modified-since': 'garbage' } })).status).toBe(200);
      const mismatched = await send('/sitemap.xml', {
        headers: { 'if-modified-since': lastModified, 'if-none-match': '"other"' },
      });
      expect(mismatched.status).toBe(200);
    });

    it('answers HEAD with the GET headers and no body', async () => {
      for (const [target, headers] of [
        ['/sitemap.xml', {}],
        ['/sitemap.xml', { 'accept-encoding': 'gzip' }],
        ['/sitemap-1.xml.gz', {}],
        ['/robots.txt', {}],
      ] as const) {
        const get = await send(target, { headers });
        const head = await send(target, { method: 'HEAD', headers });
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'last-modified', 'vary']) {
          expect([target, name, head.headers[name]]).toEqual([target, name, get.headers[name]]);
        }
      }
    });

    it('refuses other methods with 405 and Allow', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
        const response = await send('/sitemap.xml', { method });
        expect([method, response.status, response.headers.allow]).toEqual([method, 405, 'GET, HEAD']);
      }
      // A body is never parsed, so a malformed one cannot turn the 405 into a parser's error.
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded', 'text/plain', '']) {
        const response = await send('/sitemap.xml', {
          method: 'POST',
          body: '{"bad',
          headers: contentType ? { 'content-type': contentType } : {},
        });
        expect([contentType, response.status, response.body.toString()]).toEqual([
          contentType,
          405,
          'Method Not Allowed\n',
        ]);
      }
    });
  });

  describe('answers from memory', () => {
    it('are the answers a cold cache gives through Fastify, header for header', async () => {
      const cases: [string, Record<string, string>, string?][] = [
        ['/sitemap.xml', {}],
        ['/sitemap.xml', { 'accept-encoding': 'gzip' }],
        ['/sitemap-1.xml.gz', {}],
        ['/sitemap-1.xml.gz', { 'if-none-match': `"${site.shard.file.sha256}"` }],
        ['/sitemap.xml', { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() }],
        ['/sitemap-1.xml.gz', {}, 'HEAD'],
        ['/robots.txt', {}],
        ['/robots.txt', {}, 'HEAD'],
        [`/${site.site.indexNowKey}.txt`, {}],
        ['/sitemap-9.xml.gz', {}],
        ['/sitemap-1.xml.gz', { range: 'bytes=0-9' }],
        ['/sitemap.xml', { range: 'bytes=-20', 'accept-encoding': 'gzip' }],
        ['/sitemap.xml', { range: 'bytes=999999-' }],
        ['/robots.txt', { range: 'bytes=5-' }],
        [`http://${host}/sitemap.xml`, {}],
      ];
      const reader = app.get(ManifestReader);
      for (const [target, headers, method] of cases) {
        reader.clear();
        const cold = await send(target, { headers, method: method ?? 'GET' });
        const warm = await send(target, { headers, method: method ?? 'GET' });
        const comparable = (response: RawResponse) => ({
          ...response,
          headers: { ...response.headers, date: undefined },
        });
        expect([target, headers, comparable(warm)]).toEqual([target, headers, comparable(cold)]);
      }
    });

    /** Writes `requests` at once on one connection; everything the server sends until it closes. */
    function converse(requests: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(requests));
        let received = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => (received += chunk));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
      });
    }
    const request = (method: string, target: string, headers = '') =>
      `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nAccept-Encoding: gzip\r\n${headers}\r\n`;
    /** Each answer to GETs: its status line, head and body (a 304 has none). */
    function answers(text: string): { status: string; head: string; body: string }[] {
      const parts: { status: string; head: string; body: string }[] = [];
      for (let rest = text; rest.length > 0;) {
        const end = rest.indexOf('\r\n\r\n');
        const head = rest.slice(0, end);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        const status = head.split('\r\n')[0] ?? '';
        const body = status.includes(' 304 ') ? '' : rest.slice(end + 4, end + 4 + length);
        parts.push({ status, head, body });
        rest = rest.slice(end + 4 + body.length);
      }
      return parts;
    }

    it('answers pipelined and keep-alive requests on one connection in order, until Connection: close', async () => {
      await send('/sitemap.xml', { headers: { 'accept-encoding': 'gzip' } }); // in memory from here on
      const etag = `"${site.shard.file.sha256}"`;
      const text = await converse(
        request('GET', '/sitemap-1.xml.gz', `If-None-Match: ${etag}\r\n`) +
          request('GET', '/robots.txt') +
          request('GET', '/sitemap.xml') +
          request('GET', '/sitemap-1.xml.gz', `If-None-Match: ${etag}\r\nConnection: close\r\n`),
      );
      const parts = answers(text);
      expect(parts.map((part) => part.status)).toEqual([
        'HTTP/1.1 304 Not Modified',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 304 Not Modified',
      ]);
      expect(parts.map((part) => /\r\nConnection: (\S+)/.exec(part.head)?.[1])).toEqual([
        'keep-alive',
        'keep-alive',
        'keep-alive',
        'close',
      ]);
      expect(parts[1]?.body).toBe((await send('/robots.txt')).body.toString('latin1'));
      expect(gunzipSync(Buffer.from(parts[2]?.body ?? '', 'latin1')).toString()).toContain('<sitemapindex');
      for (const part of parts) expect(part.head).toMatch(/\r\nDate: \w{3}, \d\d \w{3} \d{4} [\d:]{8} GMT(\r\n|$)/);
    });

    it('answers HEAD on a kept connection with the length and no body', async () => {
      await send('/robots.txt');
      const text = await converse(
        request('HEAD', '/robots.txt') +
          request('HEAD', '/sitemap.xml') +
          request('GET', '/robots.txt', 'Connection: close\r\n'),
      );
      const [robots, index, last] = text.split(/(?=HTTP\/1\.1 )/);
      expect(robots).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*content-length: \d+\r\n[^]*\r\n\r\n$/);
      expect(index).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*content-encoding: gzip\r\n[^]*\r\n\r\n$/);
      expect(last).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*Connection: close\r\n\r\nUser-agent: /);
    });

    it('gives robots.txt a strong ETag and answers If-None-Match with 304', async () => {
      const first = await send('/robots.txt');
      expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
      const again = await send('/robots.txt', { headers: { 'if-none-match': first.headers.etag ?? '' } });
      expect([again.status, again.body.length, again.headers.etag, again.headers['cache-control']]).toEqual([
        304,
        0,
        first.headers.etag,
        'public, max-age=300',
      ]);
      // Without a Last-Modified, a date alone never makes it a 304.
      expect((await send('/robots.txt', { headers: { 'if-modified-since': new Date().toUTCString() } })).status).toBe(
        200,
      );
    });
  });

  describe('robots.txt', () => {
    it('names the index, even before the first publish, and robots-parser reads it', async () => {
      const fresh = await createSite(prisma, 'localhost', { scheme: 'http' });
      // fetch, as a crawler would: it cannot set Host, so this site is called localhost.
      const response = await fetch(`http://localhost:${port}/robots.txt`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const text = await response.text();
      expect(text).toBe('User-agent: *\nAllow: /\n\nSitemap: http://localhost/sitemap.xml\n');
      const robots = robotsParser(`http://${fresh.hostname}/robots.txt`, text);
      expect(robots.getSitemaps()).toEqual(['http://localhost/sitemap.xml']);
      expect(robots.isAllowed('http://localhost/any/page', 'Googlebot')).toBe(true);
      expect((await fetch(`http://localhost:${port}/sitemap.xml`)).status).toBe(404);
    });

    it('uses the site scheme and hostname', async () => {
      const response = await send('/robots.txt');
      expect(robotsParser(`https://${host}/robots.txt`, response.body.toString()).getSitemaps()).toEqual([
        `https://${host}/sitemap.xml`,
      ]);
    });

    it("keeps the site's own rules and cache max-age, and appends the Sitemap line", async () => {
      const own = await createSite(prisma, 'rules.example.com', {
        robotsTxt: 'User-agent: BadBot\nDisallow: /\n\n',
        cacheMaxAge: 60,
      });
      const response = await send('/robots.txt', { host: own.hostname });
      expect(response.headers['cache-control']).toBe('public, max-age=60');
      const text = response.body.toString();
      expect(text).toBe('User-agent: BadBot\nDisallow: /\n\nSitemap: https://rules.example.com/sitemap.xml\n');
      const robots = robotsParser('https://rules.example.com/robots.txt', text);
      expect(robots.isDisallowed('https://rules.example.com/p', 'BadBot')).toBe(true);
      expect(robots.isAllowed('https://rules.example.com/p', 'Googlebot')).toBe(true);
      expect(robots.getSitemaps()).toEqual(['https://rules.example.com/sitemap.xml']);
    });
  });

  describe('IndexNow key file', () => {
    it("serves the site's key as text at /<key>.txt, and only there", async () => {
      const response = await send(`/${site.site.indexNowKey}.txt`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(response.body.toString()).toBe(site.site.indexNowKey);
      expect((await send(`/${site.site.indexNowKey}.txt`, { host: 'rules.example.com' })).status).toBe(404);
      expect((await send('/00000000-0000-0000-0000-000000000000.txt')).status).toBe(404);
    });
  });

  describe('what the server must not reveal or reach', () => {
    it('answers 404 with a plain body for an unknown or malformed host', async () => {
      for (const other of ['unknown.example.org', 'bad host', '']) {
        const response = await send('/sitemap.xml', { host: other });
        expect(response.status).toBe(404);
        expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(response.body.toString()).toBe('Not Found\n');
      }
      expect((await send('/robots.txt', { host: 'unknown.example.org' })).status).toBe(404);
    });

    it('refuses traversal-shaped paths with 400 or 404, never serving a file', async () => {
      const attempts = [
        '/../../etc/passwd',
        '/sitemaps/../sitemap.xml',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/sitemaps/%2E%2E/sitemap.xml',
        '/sitemaps%2fsitemap-1.xml.gz',
        '/sitemaps%2Fsitemap-1.xml.gz',
        '/..%5c..%5cetc%5cpasswd',
        '/sitemap.xml%00',
        '/sitemap.xml%00.gz',
        '/%ff%fe',
        '/sitemaps/./sitemap-1.xml.gz',
        '//etc/passwd',
        '/s/..%2f..%2fetc/passwd',
      ];
      for (const attempt of attempts) {
        const response = await send(attempt);
        expect([attempt, [400, 404].includes(response.status)]).toEqual([attempt, true]);
        expect(response.body.toString()).toMatch(/^(Bad Request|Not Found)\n$/);
      }
    });

    it('answers a bare 500 when a listed file is missing, without internals', async () => {
      const broken = await createSite(prisma, 'broken.example.com');
      const index = await storeXml(store, broken.id, {
        xml: sitemapIndexXml('https://broken.example.com', []),
        kind: 'index',
      });
      await switchManifest(prisma, broken.id, { 'sitemap.xml': { ...index.file, sha256: 'f'.repeat(64) } });
      const response = await send('/sitemap.xml', { host: broken.hostname });
      expect(response.status).toBe(500);
      expect(response.body.toString()).toBe('Internal Server Error\n');
    });
  });

  describe('text sitemap', () => {
    const text = 'https://text.example.com/a\nhttps://text.example.com/b?x=1&y=2\n';

    it('serves /sitemap.txt as UTF-8 text when the site enables it, with the validators of any file', async () => {
      const on = await createSite(prisma, 'text.example.com', { textSitemap: true, cacheMaxAge: 120 });
      const stored = await storeXml(store, on.id, { xml: text, kind: 'text', urlCount: 2 });
      await switchManifest(prisma, on.id, { 'sitemap.txt': stored.file });

      const plainText = await send('/sitemap.txt', { host: on.hostname });
      expect(plainText.status).toBe(200);
      expect(plainText.headers).toMatchObject({
        'content-type': 'text/plain; charset=utf-8',
        etag: `"${stored.file.sha256}-identity"`,
        'x-robots-tag': 'noindex',
        'cache-control': 'public, max-age=120',
        vary: 'Accept-Encoding',
        'content-length': String(Buffer.byteLength(text)),
      });
      expect(plainText.body.toString('utf8')).toBe(text);

      const gzipped = await send('/sitemap.txt', { host: on.hostname, headers: { 'accept-encoding': 'gzip' } });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzipped.body).toString('utf8')).toBe(text);

      const again = await send('/sitemap.txt', {
        host: on.hostname,
        headers: { 'if-none-match': plainText.headers.etag ?? '' },
      });
      expect([again.status, again.body.length]).toEqual([304, 0]);
      const head = await send('/sitemap.txt', { host: on.hostname, method: 'HEAD' });
      expect([head.status, head.headers['content-length'], head.body.length]).toEqual([
        200,
        String(Buffer.byteLength(text)),
        0,
      ]);
      expect((await send('/sitemap.txt.gz', { host: on.hostname })).status).toBe(404);
    });

    it('answers 404 for /sitemap.txt when the site has it off, even while the manifest still lists it', async () => {
      const off = await createSite(prisma, 'text-off.example.com');
      const stored = await storeXml(store, off.id, { xml: text, kind: 'text', urlCount: 2 });
      await switchManifest(prisma, off.id, { 'sitemap.txt': stored.file });
      const response = await send('/sitemap.txt', { host: off.hostname });
      expect([response.status, response.body.toString()]).toEqual([404, 'Not Found\n']);
      expect((await send('/sitemap.txt')).status).toBe(404);
    });
  });

  describe('request limits', () => {
    /** Whatever the client sends, as bytes on a socket; resolves with the whole answer once the server closes. */
    function sendRaw(request: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', reject);
      });
    }

    it('refuses request targets over 4 KiB with 414 and request heads over 8 KiB with 431', async () => {
      const longTarget = await send(`/sitemaps/${'a'.repeat(5_000)}.xml.gz`);
      expect([longTarget.status, longTarget.body.toString()]).toEqual([414, 'URI Too Long\n']);
      const bigHeaders = await send('/sitemap.xml', { headers: { cookie: 'x'.repeat(9_000) } });
      expect(bigHeaders.status).toBe(431);
      const hugeTarget = await sendRaw(`GET /${'a'.repeat(9_000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expect(hugeTarget).toMatch(/^HTTP\/1\.1 431 /);
    });

    it('answers asterisk and malformed absolute-form targets with 400, without echoing them', async () => {
      for (const target of [
        '*',
        `http://user@${host}/sitemap.xml`,
        `ftp://${host}/sitemap.xml`,
        'http:///sitemap.xml',
      ]) {
        const answer = await sendRaw(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expect(answer).toMatch(/^HTTP\/1\.1 4\d\d /);
        const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
        expect([target, body]).toEqual([target, expect.stringMatching(/^(Bad Request|Not Found)\n$/)]);
      }
    });
  });

  describe('absolute-form request targets (RFC 9112 §3.2.2)', () => {
    it('serves the site the target names, whatever Host says', async () => {
      for (const scheme of ['http', 'https', 'HTTP']) {
        const response = await send(`${scheme}://${host.toUpperCase()}:8080/sitemap.xml`, {
          host: 'unknown.example.org',
        });
        expect([scheme, response.status, response.body.toString()]).toEqual([scheme, 200, site.index.xml]);
        expect(response.headers.etag).toBe(`"${site.index.file.sha256}-identity"`);
      }
      const head = await send(`http://${host}/sitemap-1.xml.gz`, {
        method: 'HEAD',
        host: 'unknown.example.org',
      });
      expect([head.status, head.headers['content-length'], head.body.length]).toEqual([
        200,
        String(site.shard.file.gzipSize),
        0,
      ]);
      // The target's host wins over the Host of a served site, too.
      const elsewhere = await send('http://unknown.example.org/sitemap.xml');
      expect(elsewhere.status).toBe(404);
      // On the platform host, by path.
      const byPath = await send(`http://${PLATFORM_HOST}/s/${host}/robots.txt`, { host: 'unknown.example.org' });
      expect([byPath.status, byPath.body.toString()]).toEqual([200, expect.stringContaining('Sitemap: ')]);
      // The platform's index lists the platform's addresses: the target's host decides that too.
      const platformIndex = await send(`http://${PLATFORM_HOST}/s/${host}/sitemap.xml`, { host });
      expect(platformIndex.body.toString()).toContain(`<loc>http://${PLATFORM_HOST}/s/${host}/sitemap-1.xml.gz</loc>`);
      const siteIndex = await send(`http://${host}/sitemap.xml`, { host: PLATFORM_HOST });
      expect(siteIndex.body.toString()).toBe(site.index.xml);
    });
  });

  describe('byte ranges', () => {
    const SHARD = '/sitemap-1.xml.gz';

    it('answers one range of a stored shard with 206 and Content-Range, and the rest resumes it', async () => {
      const length = site.shard.gzip.length;
      const first = await send(SHARD, { headers: { range: 'bytes=0-9' } });
      expect(first.status).toBe(206);
      expect(first.headers).toMatchObject({
        'content-range': `bytes 0-9/${length}`,
        'content-length': '10',
        'content-type': 'application/gzip',
        'accept-ranges': 'bytes',
        etag: `"${site.shard.file.sha256}"`,
      });
      const rest = await send(SHARD, { headers: { range: 'bytes=10-', 'if-range': first.headers.etag ?? '' } });
      expect([rest.status, rest.headers['content-range']]).toEqual([206, `bytes 10-${length - 1}/${length}`]);
      expect(Buffer.concat([first.body, rest.body])).toEqual(site.shard.gzip);
      const suffix = await send(SHARD, { headers: { range: `bytes=-${length + 100}` } });
      expect([suffix.status, suffix.body]).toEqual([206, site.shard.gzip]);
    });

    it('counts the bytes of the representation sent: gzip-encoded or decompressed, each with its own ETag', async () => {
      const gzipped = await send('/sitemap.xml', { headers: { range: 'bytes=0-99', 'accept-encoding': 'gzip' } });
      expect([gzipped.status, gzipped.headers['content-encoding'], gzipped.headers.etag]).toEqual([
        206,
        'gzip',
        `"${site.index.file.sha256}"`,
      ]);
      expect(gzipped.headers['content-range']).toBe(`bytes 0-99/${site.index.gzip.length}`);
      expect(gzipped.body).toEqual(site.index.gzip.subarray(0, 100));
      const plainXml = await send('/sitemap.xml', { headers: { range: 'bytes=-20' } });
      const xml = Buffer.from(site.index.xml);
      expect([plainXml.status, plainXml.headers['content-encoding'], plainXml.headers.etag]).toEqual([
        206,
        undefined,
        `"${site.index.file.sha256}-identity"`,
      ]);
      expect(plainXml.headers['content-range']).toBe(`bytes ${xml.length - 20}-${xml.length - 1}/${xml.length}`);
      expect(plainXml.body).toEqual(xml.subarray(xml.length - 20));
      // The gzip bytes' tag does not validate a range of the decompressed XML: the whole XML instead.
      const mixed = await send('/sitemap.xml', {
        headers: { range: 'bytes=0-9', 'if-range': gzipped.headers.etag ?? '' },
      });
      expect([mixed.status, mixed.body.toString()]).toEqual([200, site.index.xml]);
    });

    it('honours If-Range with the strong ETag or the Last-Modified date, else sends the whole file', async () => {
      const full = await send(SHARD);
      const range = 'bytes=0-9';
      for (const [ifRange, status] of [
        [full.headers.etag ?? '', 206],
        [full.headers['last-modified'] ?? '', 206],
        [`W/${full.headers.etag}`, 200],
        ['"another"', 200],
        [new Date(0).toUTCString(), 200],
      ] as const) {
        const response = await send(SHARD, { headers: { range, 'if-range': ifRange } });
        expect([ifRange, response.status, response.body.length]).toEqual([
          ifRange,
          status,
          status === 206 ? 10 : site.shard.gzip.length,
        ]);
      }
    });

    it('answers 416 with the length for a range past the end, and 200 to ranges it does not honour', async () => {
      const length = site.shard.gzip.length;
      const past = await send(SHARD, { headers: { range: `bytes=${length}-` } });
      expect([past.status, past.headers['content-range'], past.body.toString()]).toEqual([
        416,
        `bytes */${length}`,
        'Range Not Satisfiable\n',
      ]);
      // Several ranges, another unit, a malformed one: the whole file, as RFC 9110 §14.2 allows.
      for (const range of ['bytes=0-9,20-29', 'items=0-9', 'bytes=9-0', 'bytes=x']) {
        const response = await send(SHARD, { headers: { range } });
        expect([range, response.status, response.headers['content-range'], response.body]).toEqual([
          range,
          200,
          undefined,
          site.shard.gzip,
        ]);
        expect(response.headers['accept-ranges']).toBe('bytes');
      }
    });

    it('lets a 304 win over Range, and leaves HEAD whole', async () => {
      const etag = `"${site.shard.file.sha256}"`;
      const notModified = await send(SHARD, { headers: { range: 'bytes=0-9', 'if-none-match': etag } });
      expect(notModified.status).toBe(304);
      const head = await send(SHARD, { method: 'HEAD', headers: { range: 'bytes=0-9' } });
      expect([head.status, head.headers['content-range'], head.headers['accept-ranges']]).toEqual([
        200,
        undefined,
        'bytes',
      ]);
      expect(head.headers['content-length']).toBe(String(site.shard.gzip.length));
    });

    it('serves ranges of robots.txt too', async () => {
      const whole = await send('/robots.txt');
      expect(whole.headers['accept-ranges']).toBe('bytes');
      const part = await send('/robots.txt', { headers: { range: 'bytes=0-9' } });
      expect([part.status, part.body]).toEqual([206, whole.body.subarray(0, 10)]);
    });
  });

  describe('path-based routing on the platform host', () => {
    it('serves /s/<hostname>/… as the site would on its own host', async () => {
      const shard = await fetch(`${base}/s/${host}/sitemap-1.xml.gz`);
      expect(Buffer.from(await shard.arrayBuffer())).toEqual(site.shard.gzip);
      expect((await fetch(`${base}/s/unknown.example.org/sitemap.xml`)).status).toBe(404);
      expect((await fetch(`${base}/sitemap.xml`, { headers: { 'x-ignored': '1' } })).status).toBe(404);
    });

    it('serves under /s/<hostname>/ an index whose files are served there too (cross-submission)', async () => {
      const index = await fetch(`${base}/s/${host}/sitemap.xml`);
      expect(index.status).toBe(200);
      expect(index.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      // fetch asked for gzip and decompressed it.
      expect(index.headers.get('content-encoding')).toBe('gzip');
      const tag = index.headers.get('etag') ?? '';
      expect(tag).not.toBe(`"${site.index.file.sha256}"`);
      const xml = await index.text();
      expect(await validate('index.xml', Buffer.from(xml))).toBe('valid sitemapindex');
      const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
      expect(locs).toEqual([`http://${PLATFORM_HOST}/s/${host}/sitemap-1.xml.gz`]);
      for (const loc of locs) {
        const child = await fetch(`${base}${new URL(loc ?? '').pathname}`);
        expect(child.status).toBe(200);
        expect(Buffer.from(await child.arrayBuffer())).toEqual(site.shard.gzip);
      }
      expect((await fetch(`${base}/s/${host}/sitemap.xml`, { headers: { 'if-none-match': tag } })).status).toBe(304);
      // The site's own host still gets the stored index, which lists the files on that host.
      expect((await send('/sitemap.xml')).body.toString()).toBe(site.index.xml);
      // A tenant's robots.txt rules, served on the platform's own host: never sniffed as HTML there.
      const robots = await send(`/s/${host}/robots.txt`, { host: PLATFORM_HOST });
      expect(robots.status).toBe(200);
      expect(robots.headers).toMatchObject({
        'content-type': 'text/plain; charset=utf-8',
        'x-content-type-options': 'nosniff',
      });
      expect((await fetch(`${base}/s/unknown.example.org/sitemap.xml`)).status).toBe(404);
      expect((await fetch(`${base}/sitemap.xml`, { headers: { 'x-ignored': '1' } })).status).toBe(404);
    });
  });

  describe('files that moved', () => {
    it('answers 301 from a path of the legacy folder to where the file is now, on the host and under /s/', async () => {
      const moved = await publishSite(prisma, store, 'moved.example.com');
      const { shard, index } = moved;
      await switchManifest(
        prisma,
        moved.site.id,
        { 'sitemap.xml': index.file, 'sitemap-1.xml.gz': shard.file },
        { 'sitemaps/sitemap-1.xml.gz': 'sitemap-1.xml.gz' },
      );
      await publishManifestChanged(announcements, moved.site.id);
      const cases: [string, string | undefined, string][] = [
        ['/sitemaps/sitemap-1.xml.gz', 'moved.example.com', 'https://moved.example.com/sitemap-1.xml.gz'],
        ['/sitemaps/sitemap-1.xml', 'moved.example.com', 'https://moved.example.com/sitemap-1.xml'],
        [
          '/s/moved.example.com/sitemaps/sitemap-1.xml.gz',
          undefined,
          `http://${PLATFORM_HOST}/s/moved.example.com/sitemap-1.xml.gz`,
        ],
      ];
      for (const [path, siteHost, location] of cases) {
        const response = await send(path, { host: siteHost ?? `${PLATFORM_HOST}:${port}` });
        expect([path, response.status, response.headers.location]).toEqual([path, 301, location]);
        const target = new URL(location);
        const followed = await send(target.pathname, { host: siteHost ?? `${PLATFORM_HOST}:${port}` });
        expect(followed.status).toBe(200);
        expect(await validate(target.pathname, followed.body)).toBe('valid urlset');
      }
      expect((await send('/sitemaps/sitemap-2.xml.gz', { host: 'moved.example.com' })).status).toBe(404);
    });
  });

  describe('on-demand TLS ask', () => {
    /** What a TLS terminator sends before it gets a certificate: its own Host, the name in `domain`. */
    const ask = (query: string, method = 'GET') =>
      send(`/tls/allowed${query}`, { host: 'public.internal:8080', method });

    it('says 200 for a served site and the platform host, 404 for any other name, and nothing more', async () => {
      const yes = await ask(`?domain=${host}`);
      expect(yes.status).toBe(200);
      expect(yes.headers['cache-control']).toBe('no-store');
      expect(yes.body.toString()).toBe('OK\n');
      expect((await ask(`?domain=${host.toUpperCase()}`)).status).toBe(200);
      expect((await ask(`?domain=${PLATFORM_HOST}`)).status).toBe(200);
      expect((await ask('?domain=unknown.example.org', 'HEAD')).status).toBe(404);
      const no = await ask('?domain=unknown.example.org');
      expect(no.status).toBe(404);
      expect(no.body.toString()).toBe('Not Found\n');
      // On a site's own Host too: no site serves a file at that path.
      expect((await send(`/tls/allowed?domain=${host}`)).status).toBe(200);
    });

    it('says 404 for a site still pending verification and for a suspended tenant', async () => {
      const pending = await createSite(prisma, 'pending.example.net');
      await prisma.site.update({
        where: { id: pending.id },
        data: { verificationStatus: 'pending', verifiedAt: null },
      });
      expect((await ask('?domain=pending.example.net')).status).toBe(404);
      const suspended = await createSite(prisma, 'suspended.example.net');
      await prisma.tenant.update({ where: { id: suspended.tenantId }, data: { suspendedAt: new Date() } });
      expect((await ask('?domain=suspended.example.net')).status).toBe(404);
    });

    it('answers 400 without a plain hostname, and 405 to other methods', async () => {
      for (const query of ['', '?domain=', `?domain=${host}:443`, '?domain=a..b', `?name=${host}`])
        expect((await ask(query)).status, query).toBe(400);
      expect((await ask(`?domain=${host}`, 'POST')).status).toBe(405);
    });
  });

  describe('publishing', () => {
    it('serves a switched manifest as soon as the switch is announced, not before', async () => {
      const before = await send('/sitemap.xml');
      const oldTag = before.headers.etag ?? '';
      expect(before.body.toString()).toBe(site.index.xml);

      const origin = `https://${host}`;
      const xml = sitemapIndexXml(origin, ['sitemap-1.xml.gz', 'sitemap-2.xml.gz']);
      const next = await storeXml(store, site.site.id, { xml, kind: 'index' });
      await switchManifest(prisma, site.site.id, {
        'sitemap.xml': next.file,
        'sitemap-1.xml.gz': site.shard.file,
        'sitemap-2.xml.gz': site.shard.file,
      });

      // Unannounced, the change is invisible: the app answers from memory, not from Postgres.
      expect((await send('/sitemap.xml', { headers: { 'if-none-match': oldTag } })).status).toBe(304);

      await publishManifestChanged(announcements, site.site.id);
      const after = await send('/sitemap.xml', { headers: { 'if-none-match': oldTag, 'accept-encoding': 'gzip' } });
      expect(after.status).toBe(200);
      expect(after.headers.etag).toBe(`"${next.file.sha256}"`);
      expect(gunzipSync(after.body).toString()).toBe(xml);
      expect((await fetch(`${base}/s/${host}/sitemap-2.xml.gz`)).status).toBe(200);
    });
  });
});
