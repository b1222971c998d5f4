// npm run bench:scale [-- --steps 1000000,3000000,10000000]
// One site grown in steps to millions of URLs (each with three hreflang alternates), in a scratch
// database of its own, with the real apps (api, worker, public as separate processes). At each
// step: the ingest of the step's new URLs (through the ingest service, batches of 10,000, as PUT
// does), VACUUM ANALYZE of `urls`, the table's and each index's size, a full build, the manifest's
// size, a cache miss and a hit on the public server, one changed URL from the API's 200 to the new
// file served, and the planner's plans for the two queries whose cost could grow with the site:
// a shard's fragment stream and an ingest batch's lookup by loc hash. The point is the cost per
// URL from step to step: flat means a site of ten times the URLs costs ten times, not more.
// Not for CI: 10,000,000 URLs take about 12 GB of disk, and hours on a shared 2-core machine.
import http from 'node:http';
import os from 'node:os';
import { gunzipSync } from 'node:zlib';
import { Pool } from 'pg';
import { readIdSpan } from '@sitemaps/data';
import { freePort } from '@sitemaps/local-services';
import { UrlIngestService } from '@sitemaps/ingest';
import { createBenchEnv, printTable, startApp } from './support/bench-env';

const HOST = 'scale.example.com';
const ADMIN = 'bench-admin-key-0123456789';
const LANGS = ['en', 'de', 'fr'] as const;
const BATCH = 10_000;

function steps(): number[] {
  const at = process.argv.indexOf('--steps');
  const text = at === -1 ? '1000000,3000000' : (process.argv[at + 1] ?? '');
  const values = text.split(',').map(Number);
  if (values.some((v) => !Number.isInteger(v) || v < BATCH) || values.some((v, i) => i > 0 && v <= values[i - 1]!))
    throw new Error('--steps wants increasing whole numbers of URLs, e.g. 1000000,3000000');
  return values;
}

/** Page i in three languages; each URL lists its cluster (itself included). */
function entry(i: number, priority = 0.5) {
  const page = Math.floor(i / 3);
  const lang = LANGS[i % 3] as string;
  const href = (l: string) => `https://${HOST}/${l}/catalogue/product-${page}`;
  return {
    loc: href(lang),
    lastmod: '2026-01-01',
    priority,
    alternates: LANGS.map((l) => ({ hreflang: l, href: href(l) })),
  };
}

function get(port: number, path: string): Promise<{ status: number; etag: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host: HOST, 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const perUrl = (bytes: number, urls: number) => `${(bytes / urls).toFixed(0)} B/URL`;

async function main(): Promise<void> {
  const targets = steps();
  console.log(`bench:scale, steps ${targets.join(', ')}; node ${process.version}; load ${os.loadavg()[0]?.toFixed(1)}`);
  const env = await createBenchEnv('scale');
  const [apiPort, publicPort] = [await freePort(), await freePort()];
  const appEnv = {
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    QUEUE_PREFIX: env.queuePrefix,
    ADMIN_API_KEY: ADMIN,
    API_PORT: String(apiPort),
    PUBLIC_PORT: String(publicPort),
    API_HOST: '127.0.0.1',
    PUBLIC_HOST: '127.0.0.1',
    WORKER_HTTP_PORT: '0',
    BUILD_QUIET_MS: '0',
    BUILD_MAX_WAIT_MS: '0',
    LOG_LEVEL: 'warn',
    INDEXNOW_ENDPOINTS: 'off',
  };
  const api = await startApp('api', { ...appEnv, LOG_LEVEL: 'info' }, /api listening/);
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return await res.json();
  };
  const tenant = await call('POST', '/v1/tenants', ADMIN, { name: 'Scale' });
  const site = await call('POST', '/v1/sites', tenant.apiKey, { hostname: HOST });
  const worker = await startApp('worker', appEnv, /worker serving queues/);
  const publicServer = await startApp('public', { ...appEnv, LOG_LEVEL: 'info' }, /public server listening/);
  const pool = new Pool({ connectionString: env.databaseUrl, max: 4 });
  // An idle connection ended from outside (a shared server's other tests) costs a reconnect, not the run.
  pool.on('error', (error) => console.error(`idle connection lost: ${error.message}`));
  // No build per batch: the bench asks for the full build itself.
  const ingest = new UrlIngestService(pool, async () => undefined);
  const ingestSite = { id: site.id, scheme: 'https', hostname: HOST, defaultChangefreq: null, defaultPriority: null };

  const waitBuild = async (buildId: string) => {
    for (;;) {
      const build = await call('GET', `/v1/sites/${site.id}/builds/${buildId}`, tenant.apiKey);
      if (build.status === 'published' || build.status === 'failed') return build;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const value = await work();
    return [value, performance.now() - started];
  };

  let stored = 0;
  let changes = 0;
  try {
    for (const target of targets) {
      // 1. Ingest the step's new URLs.
      const [, ingestMs] = await timed(async () => {
        for (let start = stored; start < target; start += BATCH) {
          const batch = Array.from({ length: Math.min(BATCH, target - start) }, (_, k) => entry(start + k));
          const result = await ingest.upsert(ingestSite, batch);
          if (result.errors.length) throw new Error(JSON.stringify(result.errors.slice(0, 3)));
        }
      });
      const added = target - stored;
      stored = target;
      console.log(`${target}: ingested ${added} in ${(ingestMs / 1000).toFixed(1)} s`);

      // 2. Vacuum and sizes.
      const [, vacuumMs] = await timed(() => pool.query('VACUUM (ANALYZE) urls'));
      const sizes = await pool.query<{ heap: string; toast: string; indexes: string }>(
        `SELECT pg_relation_size('urls') AS heap, pg_table_size('urls') - pg_relation_size('urls') AS toast,
                pg_indexes_size('urls') AS indexes`,
      );
      const indexes = await pool.query<{ name: string; bytes: string }>(
        `SELECT indexrelname AS name, pg_relation_size(indexrelid) AS bytes FROM pg_stat_user_indexes
          WHERE relname = 'urls' ORDER BY pg_relation_size(indexrelid) DESC`,
      );

      // 3. Full build.
      const [fullBuild, fullMs] = await timed(async () =>
        waitBuild((await call('POST', `/v1/sites/${site.id}/builds`, tenant.apiKey, { full: true })).buildId),
      );
      if (fullBuild.status !== 'published') throw new Error(`full build failed: ${fullBuild.error}`);
      const manifest = await pool.query<{ files: number; shards: number }>(
        `SELECT pg_column_size(files) AS files, pg_column_size(shards) AS shards FROM manifests WHERE site_id = $1`,
        [site.id],
      );

      // 4. Cache miss then hit: the index just published, then a shard nobody fetched yet.
      const [index, indexMissMs] = await timed(() => get(publicPort, '/sitemap.xml'));
      const shardPaths = [
        ...gunzipSync(index.body)
          .toString()
          .matchAll(/<loc>https:\/\/[^/]+(\/[^<]+)<\/loc>/g),
      ].map((m) => m[1] as string);
      const shardPath = shardPaths[Math.floor(shardPaths.length / 2)] as string;
      const [shard, shardMissMs] = await timed(() => get(publicPort, shardPath));
      const [, shardHitMs] = await timed(() => get(publicPort, shardPath));
      if (shard.status !== 200) throw new Error(`${shardPath}: ${shard.status}`);

      // 5. One change, API 200 to the changed file served. The URL is the first of that shard.
      const firstLoc = /<loc>([^<]+)<\/loc>/.exec(gunzipSync(shard.body).toString())?.[1] as string;
      const changedIndex = (() => {
        const m = /\/(en|de|fr)\/catalogue\/product-(\d+)$/.exec(firstLoc);
        if (!m) throw new Error(`unexpected loc ${firstLoc}`);
        return Number(m[2]) * 3 + LANGS.indexOf(m[1] as (typeof LANGS)[number]);
      })();
      changes++;
      const put = await call('PUT', `/v1/sites/${site.id}/urls`, tenant.apiKey, [
        entry(changedIndex, 0.5 + changes / 1000),
      ]);
      const apiAnswered = performance.now();
      if (put.changed !== 1) throw new Error(`change not applied: ${JSON.stringify(put)}`);
      let served = shard;
      while (served.etag === shard.etag) served = await get(publicPort, shardPath);
      const changeMs = performance.now() - apiAnswered;

      // 6. The planner on the queries that must not grow with the site.
      const shardRow = await pool.query<{ shard_id: string }>(
        `SELECT shard_id FROM urls WHERE site_id = $1 AND loc = $2`,
        [site.id, firstLoc],
      );
      const plan = async (sql: string, params: unknown[]) => {
        const { rows: out } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
        const top = out[0]['QUERY PLAN'][0];
        const nodes: string[] = [];
        const walk = (node: any) => {
          nodes.push(`${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ''}`);
          for (const child of node.Plans ?? []) walk(child);
        };
        walk(top.Plan);
        return `${top['Execution Time'].toFixed(1)} ms, ${nodes.join(' > ')}`;
      };
      // As a shard snapshot reads it: bounded by the shard's id span (readIdSpan).
      const shardId = shardRow.rows[0]?.shard_id ?? '0';
      const span = await readIdSpan(pool, shardId);
      const streamPlan = await plan(
        `SELECT fragment FROM urls WHERE shard_id = $1 AND id BETWEEN $2 AND $3 AND deleted_at IS NULL ORDER BY id`,
        [shardId, span?.first ?? '1', span?.last ?? '0'],
      );
      const hashes = await pool.query<{ loc_hash: Buffer }>(
        `SELECT loc_hash FROM urls WHERE site_id = $1 ORDER BY random() LIMIT ${BATCH}`,
        [site.id],
      );
      const lookupPlan = await plan(
        `SELECT id, loc_hash, section, shard_id, fragment_size, content_hash FROM urls WHERE site_id = $1 AND loc_hash = ANY($2::bytea[])`,
        [site.id, hashes.rows.map((r) => r.loc_hash)],
      );

      const s = sizes.rows[0] as { heap: string; toast: string; indexes: string };
      const m = manifest.rows[0];
      const figures: [string, string][] = [
        [
          'ingest',
          `${((ingestMs * 1000) / added).toFixed(1)} µs/URL (${Math.round(added / (ingestMs / 1000))} URLs/s)`,
        ],
        [
          'VACUUM (ANALYZE) urls',
          `${(vacuumMs / 1000).toFixed(1)} s (${((vacuumMs * 1000) / target).toFixed(2)} µs/URL)`,
        ],
        [
          'urls heap + TOAST',
          `${mb(Number(s.heap) + Number(s.toast))} (${perUrl(Number(s.heap) + Number(s.toast), target)})`,
        ],
        ['urls indexes', `${mb(Number(s.indexes))} (${perUrl(Number(s.indexes), target)})`],
        ...indexes.rows.map((i): [string, string] => [`  ${i.name}`, `${mb(Number(i.bytes))}`]),
        [
          'full build',
          `${(fullMs / 1000).toFixed(1)} s (${((fullMs * 1000) / target).toFixed(2)} µs/URL), ${fullBuild.shardsRendered} shards`,
        ],
        ['manifest', m ? `files ${m.files} B, shards ${m.shards} B` : 'none'],
        ['cache miss: index', `${indexMissMs.toFixed(1)} ms (${index.body.length} B)`],
        [
          'cache miss: a shard',
          `${shardMissMs.toFixed(1)} ms (${shard.body.length} B); hit ${shardHitMs.toFixed(1)} ms`,
        ],
        ['one change: API 200 -> served', `${changeMs.toFixed(0)} ms`],
        ['plan: shard stream', streamPlan],
        ['plan: lookup of 10,000 hashes', lookupPlan],
        ['worker peak RSS so far', `${worker.peakRssMb().toFixed(0)} MB`],
        ['load average', `${os.loadavg()[0]?.toFixed(1)}`],
      ];
      console.log('');
      printTable([[`${target.toLocaleString('en-US')} URLs`, ''], ...figures]);
    }
  } finally {
    await Promise.all([worker.stop(), publicServer.stop(), api.stop()]);
    await pool.end();
    await env.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
