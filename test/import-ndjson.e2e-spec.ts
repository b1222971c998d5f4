// Bulk import through the real API: a streamed NDJSON body of 200,000 lines with bad ones mixed
// in, replace mode, an API process killed mid-import, gzip, and CSV.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv, developmentSiteVerification } from '@sitemaps/config';
import { freePort } from '@sitemaps/local-services';
import { createTestDatabase, testRedisUrl, uniqueQueuePrefix, type TestDatabase, waitUntil } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createTenant, createTenantWithSite } from './support/tenant';

const ROOT = path.resolve(__dirname, '..');
const HOST = 'shop.example.com';
const url = (p: string) => `https://${HOST}${p}`;

interface Upload {
  /** Resolves with the response once the server answers. */
  response: Promise<{ status: number; body: any }>;
  write(chunk: string | Buffer): Promise<void>;
  end(): void;
  destroy(): void;
}

/** A streamed POST: the body is written as the test goes, as a client feeding a big file would. */
function startUpload(baseUrl: string, apiKey: string, pathAndQuery: string, headers: Record<string, string>): Upload {
  const target = new URL(pathAndQuery, baseUrl);
  const request = http.request(target, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, ...headers } });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
    request.on('error', reject);
  });
  return {
    response,
    write: (chunk) =>
      new Promise<void>((resolve, reject) => request.write(chunk, (error) => (error ? reject(error) : resolve()))),
    end: () => request.end(),
    destroy: () => request.destroy(),
  };
}

/** A body to upload: its headers (content type, encoding) and its bytes, in the chunks sent. */
interface UploadBody {
  headers: Record<string, string>;
  chunks: Iterable<string | Buffer>;
}

async function upload(baseUrl: string, apiKey: string, pathAndQuery: string, { headers, chunks }: UploadBody) {
  const stream = startUpload(baseUrl, apiKey, pathAndQuery, headers);
  stream.response.catch(() => undefined);
  for (const chunk of chunks) await stream.write(chunk);
  stream.end();
  return stream.response;
}

/** Lines joined into chunks of about 64 KiB. */
function* chunked(lines: Iterable<string>): Generator<string> {
  let buffer = '';
  for (const line of lines) {
    buffer += `${line}\n`;
    if (buffer.length > 65_536) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}

function entry(p: string, i: number) {
  return JSON.stringify({
    loc: url(p),
    lastmod: '2026-01-15',
    alternates: [
      { hreflang: 'de', href: `https://shop.example.de${p}` },
      { hreflang: 'en', href: url(p) },
    ],
    priority: (i % 10) / 10,
  });
}

const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> =>
  waitUntil(what, probe, { timeoutMs });

async function allRejections(api: ReturnType<typeof apiClient>, siteId: string, importId: string) {
  const items: { line: number; code: string; field: string; reason: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: any = (
      await api.get(`/v1/sites/${siteId}/imports/${importId}/rejections?limit=1000${cursor ? `&cursor=${cursor}` : ''}`)
    ).body;
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

describe('bulk import (in-process platform)', () => {
  let platform: Platform;
  let api: ReturnType<typeof apiClient>;
  let apiKey: string;
  let pool: Pool;

  const newSite = async (hostname = HOST) => (await api.post('/v1/sites', { hostname })).body.id as string;
  const liveLocs = async (siteId: string, prefix: string) =>
    Number(
      (
        await pool.query(`SELECT count(*) AS n FROM urls WHERE site_id = $1 AND deleted_at IS NULL AND loc LIKE $2`, [
          siteId,
          `${url(prefix)}%`,
        ])
      ).rows[0].n,
    );

  beforeAll(async () => {
    platform = await startPlatform();
    ({ apiKey, api } = await createTenant(platform.apiUrl, 'Shop'));
    pool = new Pool({ connectionString: platform.db.url });
  });
  afterAll(async () => {
    await pool?.end();
    await platform?.close();
  });

  it('stores exactly the valid lines of 200,000 (1% malformed) and reports every bad one by line', async () => {
    const siteId = await newSite();
    const bad = new Map<number, string[]>();
    const kinds: [string[], (i: number) => string][] = [
      [['INVALID_JSON'], (i) => `{"loc": "${url(`/p/${i}`)}", "lastmod": `],
      [['URL_HOST_MISMATCH'], (i) => JSON.stringify({ loc: `https://elsewhere.example.org/p/${i}` })],
      [['INVALID_LASTMOD'], (i) => JSON.stringify({ loc: url(`/p/${i}`), lastmod: '2026-13-45' })],
      [['LOC_TOO_LONG'], (i) => JSON.stringify({ loc: url(`/p/${i}/${'x'.repeat(2_100)}`) })],
      [['INVALID_CHARACTER', 'INVALID_URL'], (i) => JSON.stringify({ loc: url(`/p/${i}\u0001`) })],
    ];
    function* lines() {
      for (let line = 1; line <= 200_000; line++) {
        if (line % 100 === 37) {
          const [codes, make] = kinds[Math.floor(line / 100) % kinds.length]!;
          bad.set(line, codes);
          yield make(line);
        } else yield entry(`/p/${line}`, line);
      }
    }
    const res = await upload(platform.apiUrl, apiKey, `/v1/sites/${siteId}/urls/import`, {
      headers: { 'content-type': 'application/x-ndjson' },
      chunks: chunked(lines()),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'completed',
      mode: 'upsert',
      linesRead: 200_000,
      stored: 198_000,
      rejected: 2_000,
    });

    expect(await liveLocs(siteId, '/p/')).toBe(198_000);
    const stored = await pool.query(
      `SELECT count(*) AS n FROM urls WHERE site_id = $1 AND fragment LIKE '%hreflang="de"%'`,
      [siteId],
    );
    expect(Number(stored.rows[0].n)).toBe(198_000);

    const rejections = await allRejections(api, siteId, res.body.importId);
    expect(rejections).toHaveLength(2_000);
    expect(new Set(rejections.map((r) => r.line))).toEqual(new Set(bad.keys()));
    for (const rejection of rejections)
      expect(bad.get(rejection.line), `line ${rejection.line}`).toContain(rejection.code);

    const view = (await api.get(`/v1/sites/${siteId}/imports/${res.body.importId}`)).body;
    expect(view).toMatchObject({
      status: 'completed',
      source: 'upload',
      format: 'ndjson',
      mode: 'upsert',
      linesRead: 200_000,
      stored: 198_000,
      rejected: 2_000,
    });
    expect(Date.parse(view.finishedAt)).toBeGreaterThanOrEqual(Date.parse(view.startedAt));
  }, 300_000);

  it('replace deletes the URLs absent from the upload only when it completes', async () => {
    const siteId = await newSite('replace.example.com');
    const site = (p: string) => `https://replace.example.com${p}`;
    const seed = Array.from({ length: 1_000 }, (_, i) => ({ loc: site(`/a/${i}`) }));
    expect((await api.put(`/v1/sites/${siteId}/urls`, seed)).body.errors).toEqual([]);
    const live = async (prefix: string) =>
      Number(
        (
          await pool.query(`SELECT count(*) AS n FROM urls WHERE site_id = $1 AND deleted_at IS NULL AND loc LIKE $2`, [
            siteId,
            `${site(prefix)}%`,
          ])
        ).rows[0].n,
      );

    const stream = startUpload(platform.apiUrl, apiKey, `/v1/sites/${siteId}/urls/import?mode=replace`, {
      'content-type': 'application/x-ndjson',
    });
    for (const chunk of chunked(Array.from({ length: 500 }, (_, i) => JSON.stringify({ loc: site(`/a/${i}`) }))))
      await stream.write(chunk);
    for (const chunk of chunked(Array.from({ length: 15_000 }, (_, i) => JSON.stringify({ loc: site(`/b/${i}`) }))))
      await stream.write(chunk);
    // Batches commit as they go: progress is visible and new URLs are there, nothing is deleted yet.
    const running = await until('a committed batch', async () => {
      const items = (await api.get(`/v1/sites/${siteId}/imports`)).body.items as { status: string; stored: number }[];
      return items[0] && items[0].stored >= 10_000 ? items[0] : undefined;
    });
    expect(running.status).toBe('running');
    expect(await live('/a/')).toBe(1_000);
    expect(await live('/b/')).toBeGreaterThanOrEqual(9_500);

    stream.end();
    const res = await stream.response;
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'completed', mode: 'replace', stored: 15_500, deleted: 500 });
    expect(await live('/a/')).toBe(500);
    expect(await live('/b/')).toBe(15_000);
    const kept = await pool.query(
      `SELECT loc FROM urls WHERE site_id = $1 AND deleted_at IS NULL AND loc LIKE $2 ORDER BY loc`,
      [siteId, `${site('/a/')}%`],
    );
    expect(kept.rows.every((row) => Number(row.loc.split('/').pop()) < 500)).toBe(true);
  }, 120_000);

  it('accepts a gzip-encoded upload', async () => {
    const siteId = await newSite('gzip.example.com');
    const body = gzipSync(
      Array.from({ length: 3_000 }, (_, i) => JSON.stringify({ loc: `https://gzip.example.com/g/${i}` })).join('\n'),
    );
    const res = await upload(platform.apiUrl, apiKey, `/v1/sites/${siteId}/urls/import`, {
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      chunks: [body],
    });
    expect(res.body).toMatchObject({ status: 'completed', linesRead: 3_000, stored: 3_000, rejected: 0 });
    const corrupt = await upload(platform.apiUrl, apiKey, `/v1/sites/${siteId}/urls/import`, {
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      chunks: [body.subarray(0, 100)],
    });
    expect(corrupt.status).toBe(400);
    expect(corrupt.body.error.code).toBe('INVALID_COMPRESSION');
    const imports = (await api.get(`/v1/sites/${siteId}/imports`)).body.items;
    expect(imports.map((i: { status: string }) => i.status)).toEqual(['failed', 'completed']);
  });

  // CPU-heavy by design (gzip of 64 MiB, three refusals): on a loaded 2-core machine most of a minute.
  it('refuses an upload that expands too far while it expands, after each layer, and takes two honest layers', async () => {
    const siteId = await newSite('bomb.example.com');
    // 64 MiB of newlines is about 64 KiB of gzip: a thousandfold, where NDJSON compresses 25 times.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x0a));
    for (const headers of [
      { 'content-encoding': 'gzip' },
      {},
      { 'content-encoding': 'gzip', wrapped: 'yes' },
    ] as Record<string, string>[]) {
      const { wrapped, ...sent } = headers;
      const res = await upload(platform.apiUrl, apiKey, `/v1/sites/${siteId}/urls/import`, {
        headers: { 'content-type': 'application/x-ndjson', ...sent },
        chunks: [wrapped ? gzipSync(bomb) : bomb],
      });
      expect(res.status, JSON.stringify(headers)).toBe(413);
      expect(res.body.error).toMatchObject({
        code: 'COMPRESSION_RATIO_TOO_HIGH',
        message: expect.stringContaining('IMPORT_MAX_COMPRESSION_RATIO'),
      });
    }
    // A gzip file sent with Content-Encoding: gzip is two layers, both undone.
    const lines = Array.from({ length: 3_000 }, (_, i) =>
      JSON.stringify({ loc: `https://bomb.example.com/g/${i}` }),
    ).join('\n');
    const twice = await upload(platform.apiUrl, apiKey, `/v1/sites/${siteId}/urls/import`, {
      headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      chunks: [gzipSync(gzipSync(lines))],
    });
    expect(twice.body).toMatchObject({ status: 'completed', linesRead: 3_000, stored: 3_000, rejected: 0 });
    expect((await api.get(`/v1/sites/${siteId}/imports`)).body.items.map((i: { status: string }) => i.status)).toEqual([
      'completed',
      'failed',
      'failed',
      'failed',
    ]);
  }, 180_000);

  it('imports CSV with a header, alternates columns and line numbers counting the header', async () => {
    const siteId = await newSite('csv.example.com');
    const csv = [
      'loc,lastmod,changefreq,priority,hreflang,alternate:de,alternate:x-default,images',
      'https://csv.example.com/en/1,2026-02-01,daily,0.8,en,https://csv.example.de/1,https://csv.example.com/,https://cdn.example.com/1.jpg https://cdn.example.com/2.jpg',
      'https://csv.example.com/en/2,not-a-date,,,,,,',
      '"https://csv.example.com/en/3",,weekly,,,,,',
      'https://other.example.com/x,,,,,,,',
      'https://csv.example.com/en/4,,,1.5,,,,',
    ].join('\r\n');
    const res = await upload(platform.apiUrl, apiKey, `/v1/sites/${siteId}/urls/import`, {
      headers: { 'content-type': 'text/csv' },
      chunks: [csv],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'completed', linesRead: 6, stored: 2, rejected: 3 });
    const rejections = await allRejections(api, siteId, res.body.importId);
    expect(rejections.map((r) => [r.line, r.field, r.code])).toEqual([
      [3, 'lastmod', 'INVALID_LASTMOD'],
      [5, 'loc', 'URL_HOST_MISMATCH'],
      [6, 'priority', 'INVALID_PRIORITY'],
    ]);
    const urls = (await api.get(`/v1/sites/${siteId}/urls`)).body.items;
    expect(urls.map((u: { loc: string }) => u.loc)).toEqual([
      'https://csv.example.com/en/1',
      'https://csv.example.com/en/3',
    ]);
    expect(urls[0]).toMatchObject({
      lastmod: '2026-02-01',
      changefreq: 'daily',
      priority: 0.8,
      images: [{ loc: 'https://cdn.example.com/1.jpg' }, { loc: 'https://cdn.example.com/2.jpg' }],
      alternates: [
        { hreflang: 'de', href: 'https://csv.example.de/1' },
        { hreflang: 'en', href: 'https://csv.example.com/en/1' },
        { hreflang: 'x-default', href: 'https://csv.example.com/' },
      ],
    });
    const unknown = await upload(platform.apiUrl, apiKey, `/v1/sites/${siteId}/urls/import`, {
      headers: { 'content-type': 'text/csv' },
      chunks: ['loc,colour\nhttps://csv.example.com/x,red\n'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('INVALID_CSV_HEADER');
  });

  it("hides another tenant's imports and refuses a JSON body", async () => {
    const siteId = await newSite('private.example.com');
    const other = apiClient(
      platform.apiUrl,
      (await apiClient(platform.apiUrl, ADMIN_KEY).post('/v1/tenants', { name: 'Other' })).body.apiKey,
    );
    const res = await upload(platform.apiUrl, apiKey, `/v1/sites/${siteId}/urls/import`, {
      headers: { 'content-type': 'application/x-ndjson' },
      chunks: ['{"loc":"https://private.example.com/x"}\n'],
    });
    expect(res.status).toBe(201);
    expect((await other.get(`/v1/sites/${siteId}/imports/${res.body.importId}`)).status).toBe(404);
    expect((await other.get(`/v1/sites/${siteId}/imports`)).status).toBe(404);
    const json = await api.call('POST', `/v1/sites/${siteId}/urls/import`, [{ loc: 'https://private.example.com/y' }]);
    expect(json.status).toBe(400);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('bulk import: the API process killed mid-replace', () => {
  let db: TestDatabase;
  let pool: Pool;
  let apiPort: number;
  const queuePrefix = uniqueQueuePrefix('import-kill');
  const children: ChildProcess[] = [];
  const site = (p: string) => `https://kill.example.com${p}`;

  async function startApi(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/api/src/main.ts'], {
      cwd: ROOT,
      env: childProcessEnv({
        SITE_VERIFICATION: developmentSiteVerification(),
        DATABASE_URL: db.url,
        REDIS_URL: testRedisUrl(),
        ADMIN_API_KEY: ADMIN_KEY,
        API_PORT: String(apiPort),
        API_HOST: '127.0.0.1',
        QUEUE_PREFIX: queuePrefix,
        LOG_LEVEL: 'warn',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr?.on('data', (data: Buffer) => (output += data.toString()));
    await until(
      `the API on port ${apiPort} (${output.slice(-500)})`,
      async () => {
        if (child.exitCode !== null) throw new Error(`api exited: ${output}`);
        const ok = await fetch(`http://127.0.0.1:${apiPort}/health`).then(
          (r) => r.ok,
          () => false,
        );
        return ok ? true : undefined;
      },
      90_000,
    );
    return child;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url });
    apiPort = await freePort();
  }, 60_000);
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await pool?.end();
    await db?.drop();
  });

  it('leaves no half-applied replace, and the next start marks the import failed', async () => {
    const first = await startApi();
    const baseUrl = `http://127.0.0.1:${apiPort}`;
    const { apiKey, api, siteId } = await createTenantWithSite(baseUrl, 'Kill', { hostname: 'kill.example.com' });
    expect(
      (
        await api.put(
          `/v1/sites/${siteId}/urls`,
          Array.from({ length: 2_000 }, (_, i) => ({ loc: site(`/old/${i}`) })),
        )
      ).body.errors,
    ).toEqual([]);

    const stream = startUpload(baseUrl, apiKey, `/v1/sites/${siteId}/urls/import?mode=replace`, {
      'content-type': 'application/x-ndjson',
    });
    stream.response.catch(() => undefined);
    for (const chunk of chunked(Array.from({ length: 25_000 }, (_, i) => JSON.stringify({ loc: site(`/new/${i}`) }))))
      await stream.write(chunk);
    const importId = await until('committed batches', async () => {
      const item = (await api.get(`/v1/sites/${siteId}/imports`)).body.items[0];
      return item?.stored >= 20_000 ? (item.id as string) : undefined;
    });

    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    stream.destroy();

    // Nothing of the replace applied: every URL absent from the upload is still live.
    const live = async (prefix: string) =>
      Number(
        (
          await pool.query(`SELECT count(*) AS n FROM urls WHERE site_id = $1 AND deleted_at IS NULL AND loc LIKE $2`, [
            siteId,
            `${site(prefix)}%`,
          ])
        ).rows[0].n,
      );
    expect(await live('/old/')).toBe(2_000);
    expect(
      Number(
        (await pool.query(`SELECT count(*) AS n FROM urls WHERE site_id = $1 AND deleted_at IS NOT NULL`, [siteId]))
          .rows[0].n,
      ),
    ).toBe(0);
    const newUrls = await live('/new/');
    expect(newUrls).toBeGreaterThanOrEqual(20_000);
    expect(newUrls).toBeLessThan(25_000 + 1);

    await startApi();
    const failed = await until('the import marked failed', async () => {
      const view = (await api.get(`/v1/sites/${siteId}/imports/${importId}`)).body;
      return view.status === 'failed' ? view : undefined;
    });
    expect(failed.error).toMatch(/interrupted/);
    expect(await live('/old/')).toBe(2_000);

    // The site takes a new import at once: the dead one holds nothing.
    const again = await upload(baseUrl, apiKey, `/v1/sites/${siteId}/urls/import?mode=replace`, {
      headers: { 'content-type': 'application/x-ndjson' },
      chunks: [`${JSON.stringify({ loc: site('/new/0') })}\n`],
    });
    expect(again.body).toMatchObject({ status: 'completed', stored: 1 });
    expect(await live('/old/')).toBe(0);
    expect(await live('/new/')).toBe(1);
  }, 240_000);
});
