// Request limits benchmark: the largest valid request of each route with a body, and twice over
// each limit, sent to the API as production runs it (compiled, APP_NODE_FLAGS: 256 MB heap), a
// fresh process per case so each peak RSS (VmHWM) is that request's alone. Prints status, time
// and peak RSS against the 400 MB the API is sized for; a case that kills the API says so.
//
//   npm run bench:limits
//
// DATABASE_URL / REDIS_URL as for npm start (else an embedded PostgreSQL, a local Redis).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { parseConfig } from '@sitemaps/config';
import { createBenchEnv, printTable, startApp, type AppProcess } from './support/bench-env';

const TARGET_RSS_MB = 400;
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
const HOST = 'limits.bench.example.com';
const LANGS = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv'];

interface Case {
  name: string;
  expect: number;
  /** The request, built before the clock starts. */
  request(api: Api): { method: string; path: string; key?: string; body: string };
}

interface Api {
  key: string;
  siteId: string;
  host: string;
}

function request(url: string, method: string, headers: Record<string, string>, body: string | Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    req.end(body);
  });
}

const pad = (prefix: string, length: number) => prefix + 'x'.repeat(Math.max(0, length - prefix.length));

/** 10,000 entries in hreflang clusters of nine, each with four images: ~30 MB, under 32 MiB. */
function largestEntries(host: string): string {
  return JSON.stringify(
    Array.from({ length: 10_000 }, (_, i) => {
      const group = Math.floor(i / LANGS.length);
      const locOf = (j: number) => pad(`https://${host}/${group}/${LANGS[j]}/`, 200);
      const j = i % LANGS.length;
      return {
        loc: locOf(j),
        lastmod: '2026-11-24T10:00:00Z',
        changefreq: 'daily',
        priority: 0.5,
        hreflang: LANGS[j],
        alternates: LANGS.map((lang, k) => ({ hreflang: lang, href: locOf(k) })),
        images: Array.from({ length: 4 }, (_, k) => ({ loc: pad(`https://${host}/img/${i}/${k}/`, 200) })),
      };
    }),
  );
}

async function main(): Promise<void> {
  const env = await createBenchEnv('limits');
  const config = parseConfig({ DATABASE_URL: env.databaseUrl });
  const { bulkBodyLimitBytes, bodyLimitBytes, jsonMaxValues, graphql } = config.api.limits;
  const appEnv = {
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    QUEUE_PREFIX: env.queuePrefix,
    ADMIN_API_KEY: ADMIN_KEY,
    LOG_LEVEL: 'warn',
  };
  const json = (key?: string) => ({
    'content-type': 'application/json',
    ...(key ? { authorization: `Bearer ${key}` } : {}),
  });
  const mutation = 'mutation($s: ID!, $e: [UrlInput!]!) { upsertUrls(siteId: $s, entries: $e) { upserted } }';
  const urls = (a: Api) => `/v1/sites/${a.siteId}/urls`;
  const cases: Case[] = [
    {
      name: 'PUT …/urls, 10,000 entries (~30 MB)',
      expect: 200,
      request: (a) => ({ method: 'PUT', path: urls(a), key: a.key, body: largestEntries(a.host) }),
    },
    {
      name: 'POST /graphql upsertUrls, the same 10,000',
      expect: 200,
      request: (a) => ({
        method: 'POST',
        path: '/graphql',
        key: a.key,
        body: `{"query":${JSON.stringify(mutation)},"variables":{"s":"${a.siteId}","e":${largestEntries(a.host)}}}`,
      }),
    },
    {
      name: 'DELETE …/urls, 10,000 locs of 2,000 chars',
      expect: 200,
      request: (a) => ({
        method: 'DELETE',
        path: urls(a),
        key: a.key,
        body: JSON.stringify({ locs: Array.from({ length: 10_000 }, (_, i) => pad(`https://${a.host}/${i}/`, 2_000)) }),
      }),
    },
    {
      name: 'PATCH site, robots.txt of 500 KB',
      expect: 200,
      request: (a) => ({
        method: 'PATCH',
        path: `/v1/sites/${a.siteId}`,
        key: a.key,
        body: JSON.stringify({ robotsTxt: `User-agent: *\n${'Disallow: /private/x\n'.repeat(23_000)}` }),
      }),
    },
    {
      name: `PUT …/urls, 2× the bulk limit (${2 * bulkBodyLimitBytes} B)`,
      expect: 413,
      request: (a) => ({
        method: 'PUT',
        path: urls(a),
        key: a.key,
        body: `[{"loc":"${'x'.repeat(2 * bulkBodyLimitBytes)}"}]`,
      }),
    },
    {
      name: 'PUT …/urls, 2× the bulk limit, no key',
      expect: 401,
      request: (a) => ({ method: 'PUT', path: urls(a), body: `[{"loc":"${'x'.repeat(2 * bulkBodyLimitBytes)}"}]` }),
    },
    {
      name: `PUT …/urls, 2× the JSON values (${2 * jsonMaxValues})`,
      expect: 413,
      request: (a) => ({ method: 'PUT', path: urls(a), key: a.key, body: `[${'{},'.repeat(2 * jsonMaxValues)}{}]` }),
    },
    {
      name: 'POST /graphql, 2× the JSON values, no key',
      expect: 401,
      request: () => ({ method: 'POST', path: '/graphql', body: `[${'{},'.repeat(2 * jsonMaxValues)}{}]` }),
    },
    {
      name: `POST /graphql, 2× the document length (${2 * graphql.maxQueryLength})`,
      expect: 413,
      request: (a) => ({
        method: 'POST',
        path: '/graphql',
        key: a.key,
        body: JSON.stringify({ query: `{${' __typename'.repeat(Math.ceil((2 * graphql.maxQueryLength) / 11))} }` }),
      }),
    },
    {
      name: `PATCH site, 2× the small-route limit (${2 * bodyLimitBytes} B)`,
      expect: 413,
      request: (a) => ({
        method: 'PATCH',
        path: `/v1/sites/${a.siteId}`,
        key: a.key,
        body: JSON.stringify({ robotsTxt: 'x'.repeat(2 * bodyLimitBytes) }),
      }),
    },
  ];

  const rows: (string | number)[][] = [
    ['case', 'status', 'expected', 'seconds', 'peak RSS MB', `÷ ${TARGET_RSS_MB} MB`],
  ];
  let failed = false;
  try {
    for (const [index, item] of cases.entries()) {
      const port = 3900 + index;
      const app: AppProcess = await startApp(
        'api',
        { ...appEnv, API_PORT: String(port), API_HOST: '127.0.0.1' },
        /api listening/,
      );
      try {
        const url = `http://127.0.0.1:${port}`;
        const host = `${index}.${HOST}`;
        const { apiKey } = (await fetch(`${url}/v1/tenants`, {
          method: 'POST',
          headers: json(ADMIN_KEY),
          body: JSON.stringify({ name: `limits ${index}` }),
        }).then((r) => r.json())) as { apiKey: string };
        const { id } = (await fetch(`${url}/v1/sites`, {
          method: 'POST',
          headers: json(apiKey),
          body: JSON.stringify({ hostname: host }),
        }).then((r) => r.json())) as { id: string };
        const { method, path, key, body } = item.request({ key: apiKey, siteId: id, host });
        const started = performance.now();
        const status = await request(`${url}${path}`, method, json(key), body).catch(
          (error: unknown) => `error: ${String(error)}`,
        );
        const seconds = (performance.now() - started) / 1000;
        const alive =
          app.child.exitCode === null &&
          app.child.signalCode === null &&
          (await fetch(`${url}/health`).then(
            (r) => r.ok,
            () => false,
          ));
        const peak = app.peakRssMb();
        if (status !== item.expect || !alive) failed = true;
        rows.push([
          item.name,
          alive ? status : `${status}, API DIED`,
          item.expect,
          seconds.toFixed(2),
          peak.toFixed(0),
          (peak / TARGET_RSS_MB).toFixed(2),
        ]);
      } finally {
        await app.stop();
      }
    }
  } finally {
    await env.close();
  }
  printTable(rows);
  if (failed) {
    console.error('some case did not answer as expected, or the API did not survive it');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
