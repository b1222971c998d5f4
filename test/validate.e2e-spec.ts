// The validator as users meet it: `npm run validate` on files and URLs, and POST /v1/validate,
// on what the platform itself serves and on files broken in each way the protocol forbids.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { waitUntil } from '@sitemaps/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@sitemaps/config';
import { createApiApp } from '../apps/api/src/api.app';
import { validationView } from '../apps/api/src/validate/validate.schemas';
import { apiClient } from './support/api-client';
import { crawl, type FetchedFile } from './support/crawler';
import { sendRaw } from './support/api-process';
import { startPlatform, type Platform } from './support/platform';
import { createTenant, createTenantWithSite } from './support/tenant';

const ROOT = path.resolve(__dirname, '..');
const HOST = 'validate.example.com';
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';

function runValidate(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'scripts/validate.ts', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('validating sitemaps', () => {
  let platform: Platform;
  let key: string;
  let served: { index: FetchedFile; shards: FetchedFile[] };
  let dir: string;
  /** A plain HTTP server for files the tests make up: path → body. */
  let files: Map<string, Buffer>;
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    platform = await startPlatform({ IMPORT_ALLOW_PRIVATE_ADDRESSES: 'true' });
    const validators = await createTenantWithSite(platform.apiUrl, 'Validators', { hostname: HOST });
    const { api: tenant, siteId } = validators;
    key = validators.apiKey;
    const entries = Array.from({ length: 2_000 }, (_, i) => ({
      loc: `https://${HOST}/p/${i}?a=1&b=${i}`,
      lastmod: '2026-11-24',
      alternates: [
        { hreflang: 'en', href: `https://${HOST}/p/${i}?a=1&b=${i}` },
        { hreflang: 'de', href: `https://de.${HOST}/p/${i}` },
      ],
      images: [{ loc: `https://cdn.example.com/${i}.jpg` }],
    }));
    expect((await tenant.put(`/v1/sites/${siteId}/urls`, entries)).body.errors).toEqual([]);
    const build = await tenant.post(`/v1/sites/${siteId}/builds`, { full: true });
    expect(await tenant.waitForBuild(siteId, build.body.buildId)).toMatchObject({ status: 'published' });
    served = await crawl(platform.publicUrl, HOST);
    dir = mkdtempSync(path.join(tmpdir(), 'validate-e2e-'));
    files = new Map();
    server = http.createServer((request, response) => {
      const body = files.get(request.url ?? '');
      response.writeHead(body ? 200 : 404, { 'content-type': 'application/xml' }).end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 180_000);
  afterAll(async () => {
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await platform?.close();
  });

  describe('npm run validate', () => {
    it('passes the index and the gzipped shards the platform serves', async () => {
      writeFileSync(path.join(dir, 'sitemap.xml'), served.index.body);
      const shardFiles = served.shards.map((shard, i) => {
        const file = path.join(dir, `shard-${i}.xml.gz`);
        writeFileSync(file, shard.body);
        return file;
      });
      expect(served.shards[0]!.body[0]).toBe(0x1f);
      const result = await runValidate([path.join(dir, 'sitemap.xml'), ...shardFiles]);
      expect(result.stdout).toContain('valid sitemapindex');
      expect(result.stdout).toContain('valid urlset (2,000 entries');
      expect(result.code, result.stdout + result.stderr).toBe(0);
    });

    it('names the file, line and rule of each problem and exits 1', async () => {
      const broken = path.join(dir, 'broken.xml');
      writeFileSync(
        broken,
        `${HEAD}<url><loc>https://${HOST}/</loc><changefreq>sometimes</changefreq></url>\n<url><loc>https://elsewhere.example.org/</loc></url>\n<url><loc>https://${HOST}/${'x'.repeat(2_100)}</loc></url>\n</urlset>\n`,
      );
      const result = await runValidate([broken]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(`${broken}:3: [xsd]`);
      expect(result.stdout).toContain(`${broken}:4: [one-host] <loc> on elsewhere.example.org, not ${HOST}`);
      expect(result.stdout).toContain(`${broken}:5: [loc-length]`);
    });

    it('follows an index over HTTP and refuses a nested index', async () => {
      const shard = `${HEAD}<url><loc>${origin}/page</loc></url>\n</urlset>\n`;
      const index = (locs: string[]) =>
        `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((loc) => `<sitemap><loc>${origin}${loc}</loc></sitemap>\n`).join('')}</sitemapindex>\n`;
      files.set('/a.xml.gz', gzipSync(shard));
      files.set('/inner.xml', Buffer.from(index(['/a.xml.gz'])));
      files.set('/index.xml', Buffer.from(index(['/a.xml.gz', '/inner.xml'])));
      const result = await runValidate(['--follow', `${origin}/index.xml`]);
      expect(result.stdout).toContain(`${origin}/a.xml.gz: valid urlset`);
      expect(result.stdout).toContain(
        `${origin}/index.xml:4: [index-nested] ${origin}/inner.xml is itself a sitemap index`,
      );
      expect(result.code).toBe(1);
    });

    it('exits 2 with its usage when given nothing to check', async () => {
      const result = await runValidate([]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('usage: npm run validate');
    });
  });

  describe('POST /v1/validate', () => {
    const post = (body: Buffer | string, contentType: string, auth = true) =>
      sendRaw(
        `${platform.apiUrl}/v1/validate`,
        'POST',
        { 'content-type': contentType, ...(auth ? { authorization: `Bearer ${key}` } : {}) },
        body,
      );

    it('checks an uploaded shard, plain or gzipped', async () => {
      for (const [body, type] of [
        [served.shards[0]!.body, 'application/gzip'],
        [Buffer.from(served.shards[0]!.xml), 'application/xml'],
      ] as const) {
        const res = await post(body, type);
        expect(res.status, res.text).toBe(200);
        expect(JSON.parse(res.text)).toEqual({
          valid: true,
          files: [
            {
              file: 'upload',
              kind: 'urlset',
              entries: 2_000,
              bytes: Buffer.byteLength(served.shards[0]!.xml),
              problems: [],
            },
          ],
        });
      }
    });

    it('lists the problems of a broken upload with line and rule', async () => {
      const res = await post(
        `${HEAD}<url><loc>https://${HOST}/</loc><priority>7</priority></url>\n<url><loc>/relative</loc></url>\n</urlset>\n`,
        'text/xml',
      );
      expect(res.status).toBe(200);
      const body = JSON.parse(res.text);
      expect(body.valid).toBe(false);
      expect(body.files[0].problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ file: 'upload', line: 3, rule: 'xsd' }),
          expect.objectContaining({ file: 'upload', line: 4, rule: 'loc-absolute' }),
        ]),
      );
    });

    it('checks text sitemaps, fetched or uploaded, and refuses a file mixing http and https', async () => {
      const text = `https://${HOST}/a\nhttps://${HOST}/b?x=1&y=2\n`;
      files.set('/sitemap.txt', Buffer.from(text));
      const fetched = await apiClient(platform.apiUrl, key).post('/v1/validate', { url: `${origin}/sitemap.txt` });
      expect(fetched.body).toEqual({
        valid: true,
        files: [{ file: `${origin}/sitemap.txt`, kind: 'text', entries: 2, bytes: text.length, problems: [] }],
      });
      const uploaded = await post(Buffer.from(text), 'application/octet-stream');
      expect(JSON.parse(uploaded.text).files[0]).toMatchObject({ kind: 'text', entries: 2, problems: [] });
      const mixed = await post(
        `${HEAD}<url><loc>https://${HOST}/a</loc></url>\n<url><loc>http://${HOST}/b</loc></url>\n</urlset>\n`,
        'application/xml',
      );
      expect(JSON.parse(mixed.text)).toMatchObject({
        valid: false,
        files: [{ problems: [expect.objectContaining({ line: 4, rule: 'one-scheme' })] }],
      });
    });

    it('stops at 50 MiB once decompressed: a small gzip of a larger file gets one finding and no schema work', async () => {
      // ~100 KB of gzip, 60 MB of XML with a schema error on line 3 that is never looked at.
      const xml = `${HEAD}<url><loc>https://${HOST}/</loc><priority>7</priority></url>\n${' '.repeat(60_000_000)}</urlset>\n`;
      const res = await post(gzipSync(xml), 'application/gzip');
      expect(res.status, res.text).toBe(200);
      const body = JSON.parse(res.text);
      expect(body.valid).toBe(false);
      expect(body.files).toHaveLength(1);
      expect(body.files[0]).toMatchObject({ entries: 0, problems: [expect.objectContaining({ rule: 'max-bytes' })] });
      expect(body.files[0].problems).toHaveLength(1);
    });

    it('answers in its own schema: a problem without a line has no "line"', async () => {
      const res = await post(
        '<!DOCTYPE urlset [<!ENTITY a "&b;"><!ENTITY b "<">]>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>&a;</url></urlset>',
        'application/xml',
      );
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('"line":null');
      expect(validationView.safeParse(JSON.parse(res.text)).error).toBeUndefined();
    });

    it('gives each tenant its share of validations and bounds them all: past either, 429 before the body is read', async () => {
      const limited = await createApiApp(platform.config, { validations: { perTenant: 1, pending: 2 } });
      await limited.listen(0, '127.0.0.1');
      const url = `${(await limited.getUrl()).replace('[::1]', '127.0.0.1')}/v1/validate`;
      const tenantKey = async (name: string): Promise<string> => (await createTenant(platform.apiUrl, name)).apiKey;
      const [a, b, c] = [await tenantKey('Slow uploader'), await tenantKey('Neighbour'), await tenantKey('Latecomer')];
      const small = `${HEAD}<url><loc>https://${HOST}/</loc></url>\n</urlset>\n`;
      const check = (tenantKey: string) =>
        sendRaw(url, 'POST', { 'content-type': 'application/xml', authorization: `Bearer ${tenantKey}` }, small);
      /** An upload whose client has sent half of it: it holds its validation until `finish`. */
      const hold = (tenantKey: string) => {
        const request = http.request(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/xml',
            authorization: `Bearer ${tenantKey}`,
            'content-length': String(Buffer.byteLength(small)),
          },
        });
        const answered = new Promise<number>((resolve, reject) => {
          request.on('response', (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          });
          request.on('error', reject);
        });
        let done = false;
        // Seen by the test through `answered`; a failing test must not leave an unhandled rejection.
        answered.then(
          () => (done = true),
          () => (done = true),
        );
        request.write(small.slice(0, 40));
        return { answered, finish: () => request.end(small.slice(40)), done: () => done };
      };
      /**
       * Holds a slot with an upload of `holder`'s until a check of `prober`'s is refused. A check can
       * reach the handler before the upload does and take the slot; then the upload is the one
       * refused, and it is sent again.
       */
      const holdUntilRefused = async (holder: string, prober: string, what: string) => {
        let held = hold(holder);
        const refused = await waitUntil(
          what,
          async (seen) => {
            if (held.done()) held = hold(holder);
            const res = seen(await check(prober));
            return res.status === 429 && !held.done() ? res : undefined;
          },
          { timeoutMs: 20_000 },
        );
        return { held, refused };
      };
      try {
        // Tenant a's second validation waits for none: it is refused at once, with a code to act on.
        const { held: first, refused } = await holdUntilRefused(a, a, "tenant a's second validation to be refused");
        expect(JSON.parse(refused.text).error.code).toBe('VALIDATIONS_BUSY');
        // Its neighbour is not held up by it.
        expect((await check(b)).status).toBe(200);
        // Two held in all: a third tenant is refused too, the queue is bounded.
        const third = await holdUntilRefused(b, c, 'the third tenant to be refused');
        const second = third.held;
        expect(JSON.parse(third.refused.text).error.code).toBe('VALIDATIONS_BUSY');
        first.finish();
        second.finish();
        expect(await first.answered).toBe(200);
        expect(await second.answered).toBe(200);
        expect((await check(c)).status).toBe(200);
        expect((await check(a)).status).toBe(200);
      } finally {
        await limited.close();
      }
    });

    it('fetches a URL, following an index', async () => {
      const res = await apiClient(platform.apiUrl, key).post('/v1/validate', {
        url: `${origin}/index.xml`,
        follow: true,
      });
      expect(res.status).toBe(200);
      expect(res.body.valid).toBe(false);
      expect(res.body.files.map((f: { file: string }) => f.file).sort()).toEqual([
        `${origin}/a.xml.gz`,
        `${origin}/index.xml`,
        `${origin}/inner.xml`,
      ]);
      expect(res.body.files.flatMap((f: { problems: { rule: string }[] }) => f.problems.map((p) => p.rule))).toEqual([
        'index-nested',
      ]);
    });

    it('refuses private addresses as the import does, unauthenticated callers, and documents over 50 MiB', async () => {
      const strict = await createApiApp(parseConfig({ ...platform.env, IMPORT_ALLOW_PRIVATE_ADDRESSES: 'false' }));
      await strict.listen(0, '127.0.0.1');
      try {
        const refused = await apiClient((await strict.getUrl()).replace('[::1]', '127.0.0.1'), key).post(
          '/v1/validate',
          { url: `${origin}/index.xml` },
        );
        expect(refused.status).toBe(400);
        expect(refused.body.error.code).toBe('ADDRESS_REFUSED');
        // By name: refused, without saying what the name resolves to (an internal name's address is no one's business).
        const byName = await apiClient((await strict.getUrl()).replace('[::1]', '127.0.0.1'), key).post(
          '/v1/validate',
          { url: 'http://localhost:1/sitemap.xml' },
        );
        expect(byName.body.error.code).toBe('ADDRESS_REFUSED');
        expect(byName.body.error.message).not.toMatch(/127\.0\.0\.1|::1/);
      } finally {
        await strict.close();
      }
      expect((await post(served.shards[0]!.body, 'application/gzip', false)).status).toBe(401);
      const huge = await post(Buffer.alloc(52_428_800 + 1_024, 0x20), 'application/xml');
      expect(huge.status).toBe(413);
      expect(JSON.parse(huge.text).error.code).toBe('DOCUMENT_TOO_LARGE');
      expect(
        (await apiClient(platform.apiUrl, key).post('/v1/validate', { url: 'ftp://x.example.com/a.xml' })).status,
      ).toBe(400);
    });
  });
});
