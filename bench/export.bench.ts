// npm run bench:export [-- --urls 1000000]
// Seeds N URLs with three hreflang alternates each, then streams GET …/urls/export from the API
// running as production runs it (its own process, its heap cap): lines and MB/s, and the API's
// peak RSS before and after the export, which a cursor keeps flat whatever N is.
import os from 'node:os';
import { Pool } from 'pg';
import { freePort } from '@sitemaps/local-services';
import { UrlIngestService } from '@sitemaps/ingest';
import { arg, createBenchEnv, printTable, startApp } from './support/bench-env';

const URLS = arg('urls', 1_000_000);
const HOST = 'export.example.com';
const ADMIN = 'bench-admin-key-0123456789';
const LANGS = ['en', 'de', 'fr'] as const;

function entry(i: number) {
  const page = Math.floor(i / 3);
  const href = (l: string) => `https://${HOST}/${l}/catalogue/product-${page}`;
  return {
    loc: href(LANGS[i % 3] as string),
    lastmod: '2026-03-04',
    alternates: LANGS.map((l) => ({ hreflang: l, href: href(l) })),
  };
}

async function main(): Promise<void> {
  console.log(`bench:export, ${URLS} URLs, node ${process.version}, load average ${os.loadavg()[0]?.toFixed(2)}`);
  const env = await createBenchEnv('export');
  const apiPort = await freePort();
  const api = await startApp(
    'api',
    {
      DATABASE_URL: env.databaseUrl,
      REDIS_URL: env.redisUrl,
      QUEUE_PREFIX: env.queuePrefix,
      ADMIN_API_KEY: ADMIN,
      API_PORT: String(apiPort),
      API_HOST: '127.0.0.1',
      BUILD_QUIET_MS: '600000',
      LOG_LEVEL: 'info',
    },
    /api listening/,
  );
  try {
    const call = async (method: string, path: string, key: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return await res.json();
    };
    const tenant = await call('POST', '/v1/tenants', ADMIN, { name: 'Bench' });
    const site = await call('POST', '/v1/sites', tenant.apiKey, { hostname: HOST });

    const pool = new Pool({ connectionString: env.databaseUrl, max: 4 });
    const ingest = new UrlIngestService(pool, async () => undefined);
    let started = performance.now();
    for (let start = 0; start < URLS; start += 10_000) {
      const batch = Array.from({ length: Math.min(10_000, URLS - start) }, (_, k) => entry(start + k));
      const result = await ingest.upsert(
        { id: site.id, scheme: 'https', hostname: HOST, defaultChangefreq: null, defaultPriority: null },
        batch,
      );
      if (result.errors.length) throw new Error(JSON.stringify(result.errors.slice(0, 3)));
    }
    await pool.end();
    console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const rssBefore = api.peakRssMb();
    started = performance.now();
    const response = await fetch(`http://127.0.0.1:${apiPort}/v1/sites/${site.id}/urls/export`, {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
    let lines = 0;
    let bytes = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    if (lines !== URLS) throw new Error(`exported ${lines} lines, expected ${URLS}`);
    printTable([
      ['measure', 'value'],
      ['URLs exported', lines],
      ['NDJSON', `${(bytes / 1_048_576).toFixed(1)} MB`],
      ['wall time', `${seconds.toFixed(1)} s (${Math.round(lines / seconds)} URLs/s)`],
      ['API peak RSS before the export', `${rssBefore.toFixed(0)} MB`],
      ['API peak RSS after the export', `${api.peakRssMb().toFixed(0)} MB`],
    ]);
    console.log('(2 cores shared with other work: times move with the load shown at the start; RSS does not)');
  } finally {
    await api.stop();
    await env.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
