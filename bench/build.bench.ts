// npm run bench:build [-- --urls 1000000] [--alternates 0] [--changes 5] [--seed-template 1]
//                     [--worker-cpu-prof <dir>]
// Seeds N URLs with three hreflang alternates each (none with --alternates 0), then measures through the real apps (api,
// worker, public as separate processes): a full build's wall time and URLs/s with the per-stage
// split, the worker's peak RSS, and after changing one URL, how many shards were re-rendered and
// the time from the API's 200 to the public server serving the change (quiet period 0), polled
// as a crawler asks (conditional GET, Accept-Encoding: gzip), so each poll costs a 304, not a
// download; --changes such changes one after another, the figures their medians, split by the
// build's jobs and the render's stages. The peer: the `sitemap` package rendering and gzipping the same entries in this
// process (SitemapStream piped into createGzip, per 50,000-URL file), on a sample of
// --peer-urls (default 200,000) and scaled to N by its rate. After seeding, VACUUM ANALYZE urls
// (what autovacuum does after a large ingest; --analyze 0 skips it), and for the full build the
// CPU time of the worker and of the bench database's Postgres backends (from /proc) and the
// `urls` rows Postgres read (pg_stat_user_tables), which a plan walking the site multiplies.
// --seed-template 1: the seeded database (after its VACUUM ANALYZE) is kept as a template named by
// N, the alternates and a hash of what wrote it (migrations, ingest, fragment writer), and later
// runs start from a file copy of it: seconds instead of minutes of ingest per run at 1,000,000,
// which is what lets bench:compare run rounds at that size. Drop `bench_seed_*` databases by hand.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import os from 'node:os';
import { Readable } from 'node:stream';
import { createGzip, gunzipSync } from 'node:zlib';
import { SitemapStream, streamToPromise } from 'sitemap';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { escapeLiteral, Pool } from 'pg';
import { loadServiceEnv } from '@sitemaps/config';
import { jobId, QUEUE } from '@sitemaps/jobs';
import { freePort } from '@sitemaps/local-services';
import { UrlIngestService } from '@sitemaps/ingest';
import { arg, createBenchEnv, printTable, ROOT, startApp, type BenchEnv } from './support/bench-env';
import { printResult } from './support/bench-result';

const URLS = arg('urls', 1_000_000);
const PEER_URLS = Math.min(URLS, arg('peer-urls', 200_000));
const ANALYZE = arg('analyze', 1) !== 0;
/** Each URL lists its three-language cluster (as the serving bench's URLs do); 0: plain URLs. */
const ALTERNATES = arg('alternates', 1) !== 0;
/** One-URL changes measured one after another; the figures are their medians. */
const CHANGES = Math.max(1, arg('changes', 5));
const SEED_TEMPLATE = arg('seed-template', 0) !== 0;
/** --worker-cpu-prof <dir>: the worker writes a V8 CPU profile there when it stops. */
const WORKER_CPU_PROF = (() => {
  const index = process.argv.indexOf('--worker-cpu-prof');
  return index >= 0 ? process.argv[index + 1] : undefined;
})();
const HOST = 'bench.example.com';
const ADMIN = 'bench-admin-key-0123456789';
const LANGS = ['en', 'de', 'fr'] as const;

function entry(i: number) {
  // Page i exists in three languages; each URL lists the cluster (itself included).
  const page = Math.floor(i / 3);
  const lang = LANGS[i % 3] as string;
  const href = (l: string) => `https://${HOST}/${l}/catalogue/product-${page}`;
  return {
    loc: href(lang),
    changefreq: 'weekly',
    priority: 0.5,
    ...(ALTERNATES ? { alternates: LANGS.map((l) => ({ hreflang: l, href: href(l) })) } : {}),
  };
}

/** The `sitemap` package on the same entries, as its README shows it: URLs/s over `count` URLs. */
async function sitemapPackageRate(count: number): Promise<number> {
  const started = performance.now();
  for (let start = 0; start < count; start += 50_000) {
    const stream = new SitemapStream({ hostname: `https://${HOST}` });
    const gzip = streamToPromise(stream.pipe(createGzip({ level: 3 })));
    const items = Array.from({ length: Math.min(50_000, count - start) }, (_, k) => {
      const e = entry(start + k);
      return {
        url: e.loc,
        changefreq: e.changefreq,
        priority: e.priority,
        links: e.alternates?.map((a) => ({ lang: a.hreflang, url: a.href })),
      };
    });
    Readable.from(items).pipe(stream);
    await gzip;
  }
  return count / ((performance.now() - started) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; etag: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

/** CPU seconds (user + system) a live process has used, 0 when it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of a live process's threads now, summed by kind: the main thread (JavaScript), libuv's
 * thread pool (zlib, crypto, fs) and the rest (V8's GC and compiler helpers).
 */
function threadCpu(pid: number): Record<'main' | 'pool' | 'other', number> {
  const sums = { main: 0, pool: 0, other: 0 };
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        sums[tid === String(pid) ? 'main' : name.startsWith('libuv-worker') ? 'pool' : 'other'] += seconds;
      } catch {
        // The thread ended while listed.
      }
    }
  } catch {
    // The process is gone.
  }
  return sums;
}

/** CPU seconds of the database's backends now, by pid (backends that exited are not counted). */
async function backendCpu(pool: Pool): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  return new Map(rows.map((row) => [row.pid, cpuSeconds(row.pid)]));
}

/** Rows of `urls` read so far (sequential scans' plus index fetches'), as the statistics have them. */
async function urlRowsRead(pool: Pool): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // backends flush their counts within a second
  const { rows } = await pool.query<{ read: string }>(
    `SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS read FROM pg_stat_user_tables WHERE relname = 'urls'`,
  );
  return Number(rows[0]?.read ?? 0);
}

/**
 * Where the one change's time went, from its build's BullMQ jobs (added, taken, finished; all
 * stamped by this machine's clock): each job's wait to be taken and its own run, then from the
 * publish job's end (manifest switched and announced) to the file served (the public server's
 * reload and a crawler's poll).
 */
async function changePhases({
  redisUrl,
  prefix,
  buildId,
  answeredAt,
  servedAt,
  timings,
}: {
  redisUrl: string;
  prefix: string;
  buildId: string;
  answeredAt: number;
  servedAt: number;
  /** The build's stage sums (one shard: that render's head read, COPY + deflate, store). */
  timings: { readMs?: number; gzipMs?: number; storeMs?: number };
}): Promise<(readonly [string, number])[]> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = (name: string) => new Queue(name, { connection, prefix });
  const [plans, shards, publishes] = [queue(QUEUE.build), queue(QUEUE.shard), queue(QUEUE.publish)];
  try {
    const plan = (await plans.getJobs(['completed'], 0, 20)).find((job) => job.returnvalue?.buildId === buildId);
    const renders = (await shards.getJobs(['completed'], 0, 50)).filter((job) => job.data?.buildId === buildId);
    const publish = await publishes.getJob(jobId.publishBuild(buildId));
    if (!plan || renders.length === 0 || !publish) return [];
    const render = renders.reduce((a, b) => ((a.finishedOn ?? 0) > (b.finishedOn ?? 0) ? a : b));
    const at = (ms: number | undefined) => ms ?? Number.NaN;
    return [
      ['API 200 -> plan job taken', at(plan.processedOn) - answeredAt],
      ['plan job (planning, flow added)', at(plan.finishedOn) - at(plan.processedOn)],
      ['-> render job taken', at(render.processedOn) - at(plan.finishedOn)],
      ['render job', at(render.finishedOn) - at(render.processedOn)],
      ['  head pass (counts, slice states)', timings.readMs ?? Number.NaN],
      ['  changed slices: COPY + deflate + splice', timings.gzipMs ?? Number.NaN],
      ['  store the file', timings.storeMs ?? Number.NaN],
      ['-> publish job taken', at(publish.processedOn) - at(render.finishedOn)],
      ['publish job (index, manifest switch, announce)', at(publish.finishedOn) - at(publish.processedOn)],
      ['-> served (public reload, poll)', servedAt - at(publish.finishedOn)],
    ];
  } finally {
    await Promise.all([plans.close(), shards.close(), publishes.close()]);
    connection.disconnect();
  }
}

/**
 * Where a full build's wall time went, from its BullMQ jobs (stamped by this machine's clock): the
 * plan job, the render jobs (from the first taken to the last finished, how many ran at once on
 * average and at most, and the sum of their runs), the publish job, and what is left (the API's
 * answer, polls). Renders running at once average below the worker's shard concurrency when
 * hand-offs between jobs leave slots idle.
 */
async function fullBuildTimeline({
  redisUrl,
  prefix,
  buildId,
  postedAt,
  answeredAt,
  doneAt,
}: {
  redisUrl: string;
  prefix: string;
  buildId: string;
  postedAt: number;
  answeredAt: number;
  doneAt: number;
}): Promise<(readonly [string, string])[]> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = (name: string) => new Queue(name, { connection, prefix });
  const [plans, shards, publishes] = [queue(QUEUE.build), queue(QUEUE.shard), queue(QUEUE.publish)];
  try {
    const plan = (await plans.getJobs(['completed'], 0, 20)).find((job) => job.returnvalue?.buildId === buildId);
    const renders = (await shards.getJobs(['completed'], 0, 5_000)).filter((job) => job.data?.buildId === buildId);
    const publish = await publishes.getJob(jobId.publishBuild(buildId));
    if (!plan || renders.length === 0 || !publish) return [];
    const spans = renders.map((job) => [job.processedOn ?? Number.NaN, job.finishedOn ?? Number.NaN] as const);
    const first = Math.min(...spans.map(([from]) => from));
    const last = Math.max(...spans.map(([, to]) => to));
    const busy = spans.reduce((sum, [from, to]) => sum + (to - from), 0);
    const edges = spans
      .flatMap(([from, to]) => [[from, 1] as const, [to, -1] as const])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let running = 0;
    let most = 0;
    for (const [, step] of edges) most = Math.max(most, (running += step));
    const ms = (value: number) => `${Math.round(value)} ms`;
    const durations = spans.map(([from, to]) => to - from).sort((a, b) => a - b);
    return [
      ['POST -> the API answers', ms(answeredAt - postedAt)],
      ['-> plan job taken', ms((plan.processedOn ?? Number.NaN) - answeredAt)],
      ['plan job', ms((plan.finishedOn ?? Number.NaN) - (plan.processedOn ?? Number.NaN))],
      ['plan done -> first render taken', ms(first - (plan.finishedOn ?? Number.NaN))],
      [
        `renders: first taken -> last done (${renders.length} jobs)`,
        `${ms(last - first)}; ${(busy / (last - first)).toFixed(2)} at once on average, at most ${most}`,
      ],
      [
        '  one render job: min, median, max',
        `${ms(durations[0] ?? Number.NaN)}, ${ms(median(durations))}, ${ms(durations[durations.length - 1] ?? Number.NaN)}`,
      ],
      ['last render -> publish taken', ms((publish.processedOn ?? Number.NaN) - last)],
      ['publish job', ms((publish.finishedOn ?? Number.NaN) - (publish.processedOn ?? Number.NaN))],
      ['publish done -> the API says published', ms(doneAt - (publish.finishedOn ?? Number.NaN))],
    ];
  } finally {
    await Promise.all([plans.close(), shards.close(), publishes.close()]);
    connection.disconnect();
  }
}

/** The apps' environment on a bench database. */
function appEnvFor(env: BenchEnv, apiPort: number, publicPort: number): Record<string, string> {
  return {
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
}

type Call = (method: string, path: string, key: string, body?: unknown) => Promise<any>;

function apiCaller(apiPort: number): Call {
  return async (method, path, key, body) => {
    const res = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return await res.json();
  };
}

/** A tenant and its site with N URLs, through the API and the ingest service (no build). */
async function seedSite(call: Call, pool: Pool): Promise<{ apiKey: string; siteId: string }> {
  const tenant = await call('POST', '/v1/tenants', ADMIN, { name: 'Bench' });
  const site = await call('POST', '/v1/sites', tenant.apiKey, { hostname: HOST });
  // Seed through the ingest service (validation, clusters, render at ingest), without a build.
  const ingest = new UrlIngestService(pool, async () => undefined);
  const started = performance.now();
  for (let start = 0; start < URLS; start += 10_000) {
    const batch = Array.from({ length: Math.min(10_000, URLS - start) }, (_, k) => entry(start + k));
    const result = await ingest.upsert(
      { id: site.id, scheme: 'https', hostname: HOST, defaultChangefreq: null, defaultPriority: null },
      batch,
    );
    if (result.errors.length) throw new Error(JSON.stringify(result.errors.slice(0, 3)));
  }
  const seedSeconds = (performance.now() - started) / 1000;
  console.log(
    `seeded ${URLS} URLs in ${seedSeconds.toFixed(1)} s (${Math.round(URLS / seedSeconds)} URLs/s through the ingest service)`,
  );
  if (ANALYZE) await pool.query('VACUUM ANALYZE urls');
  return { apiKey: tenant.apiKey, siteId: site.id };
}

/** Hash of the files under `paths` (spec files left out): what a seeded database depends on. */
function sourceHash(paths: string[]): string {
  const hash = createHash('sha256');
  const walk = (file: string) => {
    if (statSync(file).isDirectory()) for (const name of readdirSync(file).sort()) walk(path.join(file, name));
    else if (!/\.(int-)?spec\.ts$/.test(file)) hash.update(path.relative(ROOT, file)).update(readFileSync(file));
  };
  for (const p of paths) walk(path.join(ROOT, p));
  return hash.digest('hex').slice(0, 10);
}

/**
 * The seed template's name and, when it exists, the tenant key and site id it holds (kept in the
 * database's comment: the key is stored hashed). Made here when missing.
 */
async function seedTemplate(): Promise<{ name: string; apiKey: string; siteId: string }> {
  const hash = sourceHash([
    'prisma/migrations',
    'libs/ingest/src',
    'libs/sitemap-xml/src/url-fragment.writer.ts',
    'libs/sitemap-xml/src/escape.ts',
  ]);
  const name = `bench_seed_${URLS}_${ALTERNATES ? 'alt' : 'plain'}_${ANALYZE ? 'analyzed' : 'raw'}_${hash}`;
  const server = loadServiceEnv().databaseUrl;
  if (!server) throw new Error('--seed-template needs DATABASE_URL (a server that keeps the template)');
  const admin = new Pool({ connectionString: server, max: 1 });
  try {
    const { rows } = await admin.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [name],
    );
    const found = rows[0]?.comment ? (JSON.parse(rows[0].comment) as { apiKey: string; siteId: string }) : null;
    if (found) {
      console.log(`seed: copying template ${name}`);
      return { name, ...found };
    }
    console.log(`seed: template ${name} not found, seeding it (kept for later runs)`);
    const env = await createBenchEnv('buildseed');
    const apiPort = await freePort();
    const api = await startApp('api', appEnvFor(env, apiPort, await freePort()), /api listening/);
    const pool = new Pool({ connectionString: env.databaseUrl, max: 4 });
    try {
      const seeded = await seedSite(apiCaller(apiPort), pool);
      await pool.end();
      await api.stop();
      const from = new URL(env.databaseUrl).pathname.slice(1);
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`ALTER DATABASE ${from} RENAME TO ${name}`);
      await admin.query(`COMMENT ON DATABASE ${name} IS ${escapeLiteral(JSON.stringify(seeded))}`);
      return { name, ...seeded };
    } finally {
      await api.stop();
      await pool.end().catch(() => undefined);
      await env.close();
    }
  } finally {
    await admin.end();
  }
}

async function main(): Promise<void> {
  console.log(
    `bench:build, ${URLS} URLs ${ALTERNATES ? 'with 3 hreflang alternates each' : 'without alternates'}, node ${process.version}, load average ${os.loadavg()[0]?.toFixed(2)} at start`,
  );
  const template = SEED_TEMPLATE ? await seedTemplate() : undefined;
  const env = await createBenchEnv('build', { template: template?.name });
  const [apiPort, publicPort] = [await freePort(), await freePort()];
  const appEnv = appEnvFor(env, apiPort, publicPort);
  const api = await startApp('api', { ...appEnv, LOG_LEVEL: 'info' }, /api listening/);
  const call = apiCaller(apiPort);
  const pool = new Pool({ connectionString: env.databaseUrl, max: 4 });
  // The database is dropped WITH (FORCE) at the end: a connection still closing then is told so.
  pool.on('error', () => undefined);
  const seeded = template ?? (await seedSite(call, pool));
  const tenant = { apiKey: seeded.apiKey };
  const site = { id: seeded.siteId };

  const worker = await startApp(
    'worker',
    WORKER_CPU_PROF
      ? { ...appEnv, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(WORKER_CPU_PROF)}` }
      : appEnv,
    /worker serving queues/,
  );
  const publicServer = await startApp('public', { ...appEnv, LOG_LEVEL: 'info' }, /public server listening/);

  const waitBuild = async (buildId: string) => {
    for (;;) {
      const build = await call('GET', `/v1/sites/${site.id}/builds/${buildId}`, tenant.apiKey);
      if (build.status === 'published' || build.status === 'failed') return build;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  // The API's first requests after it starts (the seed template skips the seeding that warms it)
  // took ~1.4 s at load 8: its connections, JIT, Prisma's first queries. A full build is timed
  // from a warm API's POST, as a running service sees it.
  for (let k = 0; k < 3; k += 1) {
    await call('GET', `/v1/sites/${site.id}`, tenant.apiKey);
    await call('GET', `/v1/sites/${site.id}/builds?limit=1`, tenant.apiKey);
  }

  const workerPid = worker.child.pid ?? 0;
  const [workerCpuBefore, threadsBefore, backendsBefore, rowsBefore] = [
    cpuSeconds(workerPid),
    threadCpu(workerPid),
    await backendCpu(pool),
    await urlRowsRead(pool),
  ];
  const started = performance.now();
  const postedAt = Date.now();
  const full = await call('POST', `/v1/sites/${site.id}/builds`, tenant.apiKey, { full: true });
  const answeredAt = Date.now();
  const fullBuild = await waitBuild(full.buildId);
  const fullSeconds = (performance.now() - started) / 1000;
  const fullDoneAt = Date.now();
  const workerCpu = cpuSeconds(workerPid) - workerCpuBefore;
  const threadsAfter = threadCpu(workerPid);
  const threads = (kind: keyof typeof threadsAfter) => (threadsAfter[kind] - threadsBefore[kind]).toFixed(2);
  let postgresCpu = 0;
  for (const [pid, cpu] of await backendCpu(pool)) postgresCpu += cpu - (backendsBefore.get(pid) ?? 0);
  const rowsRead = (await urlRowsRead(pool)) - rowsBefore;
  if (fullBuild.status !== 'published') throw new Error(`full build failed: ${fullBuild.error}`);
  const timeline = await fullBuildTimeline({
    redisUrl: env.redisUrl,
    prefix: env.queuePrefix,
    buildId: full.buildId,
    postedAt,
    answeredAt,
    doneAt: fullDoneAt,
  });

  // One change: find its shard file, change it, and time until the public server serves it.
  const target = entry(Math.floor(URLS / 2));
  const index = gunzipSync(
    (await get(publicPort, '/sitemap.xml', { host: HOST, 'accept-encoding': 'gzip' })).body,
  ).toString();
  const shardPaths = [...index.matchAll(/<loc>https:\/\/[^/]+(\/[^<]+)<\/loc>/g)].map((m) => m[1] as string);
  let shardPath = '';
  for (const p of shardPaths) {
    const body = gunzipSync((await get(publicPort, p, { host: HOST })).body).toString();
    if (body.includes(`<loc>${target.loc}</loc>`)) shardPath = p;
  }
  const gzipped = { host: HOST, 'accept-encoding': 'gzip' };
  const oneChange = async (round: number) => {
    const before = await get(publicPort, shardPath, gzipped);
    const [workerCpuBefore, backendsBefore] = [cpuSeconds(workerPid), await backendCpu(pool)];
    const changeStarted = performance.now();
    // Each round's priority differs from the last one's, so each PUT is a change.
    const priority = round % 2 === 0 ? 0.9 : 0.8;
    const put = await call('PUT', `/v1/sites/${site.id}/urls`, tenant.apiKey, [{ ...target, priority }]);
    const apiAnswered = performance.now();
    const apiAnsweredAt = Date.now();
    if (put.changed !== 1) throw new Error(`change not applied: ${JSON.stringify(put)}`);
    let served = before;
    while (served.status !== 200 || served.etag === before.etag) {
      served = await get(publicPort, shardPath, { ...gzipped, 'if-none-match': before.etag ?? '' });
    }
    const ms = performance.now() - apiAnswered;
    // CPU of the change's build (the worker's and the database's backends'), steadier than its wall
    // time on a loaded machine; the bench's own polls of the public server are not in it.
    const workerCpu = cpuSeconds(workerPid) - workerCpuBefore;
    let cpu = workerCpu;
    for (const [pid, seconds] of await backendCpu(pool)) cpu += seconds - (backendsBefore.get(pid) ?? 0);
    const builds = await call('GET', `/v1/sites/${site.id}/builds?limit=1`, tenant.apiKey);
    const build = builds.items[0];
    const text = gunzipSync(served.body).toString();
    const phases = await changePhases({
      redisUrl: env.redisUrl,
      prefix: env.queuePrefix,
      buildId: build.id,
      answeredAt: apiAnsweredAt,
      servedAt: apiAnsweredAt + ms,
      timings: build.timings ?? {},
    });
    return {
      ms,
      apiMs: apiAnswered - changeStarted,
      cpu,
      workerCpu,
      build,
      served,
      phases,
      changed: text.includes(`<loc>${target.loc}</loc><lastmod>`) && text.includes(`<priority>${priority}</priority>`),
    };
  };
  const changes: Awaited<ReturnType<typeof oneChange>>[] = [];
  for (let round = 0; round < CHANGES; round += 1) changes.push(await oneChange(round));
  const changeMs = median(changes.map((change) => change.ms));
  const changeCpu = median(changes.map((change) => change.cpu));
  const changeBuild = (changes[changes.length - 1] as (typeof changes)[number]).build;
  const served = (changes[changes.length - 1] as (typeof changes)[number]).served;
  const changed = changes.every((change) => change.changed);
  const phases = (changes[0]?.phases ?? []).map(
    ([name], index) => [name, median(changes.map((change) => change.phases[index]?.[1] ?? Number.NaN))] as const,
  );

  const t = fullBuild.timings ?? {};
  const peerRate = await sitemapPackageRate(PEER_URLS);
  const ourRate = URLS / fullSeconds;
  console.log('');
  printTable([
    ['measure', 'value', 'target'],
    ['URLs', URLS, ''],
    ['full build wall time', `${fullSeconds.toFixed(2)} s`, '<= 3 s for 1,000,000'],
    ['full build throughput', `${Math.round(ourRate)} URLs/s`, ''],
    [
      'peer: `sitemap` package, one process',
      `${Math.round(peerRate)} URLs/s (${PEER_URLS} URLs): ${(URLS / peerRate).toFixed(1)} s for ${URLS}`,
      '',
    ],
    ['full build / peer', `${(ourRate / peerRate).toFixed(1)}x the peer's URLs/s`, ''],
    ['full build CPU: worker', `${workerCpu.toFixed(2)} s`, ''],
    [
      '  main thread, thread pool, V8 helpers',
      `${threads('main')}, ${threads('pool')}, ${threads('other')} s (threads alive at the end)`,
      '',
    ],
    ['full build CPU: Postgres backends (live at the end)', `${postgresCpu.toFixed(2)} s`, ''],
    ['  where it went', '', ''],
    ...timeline.map(([name, value]) => [`  ${name}`, value, '']),
    ['full build: `urls` rows read', `${rowsRead} (${(rowsRead / URLS).toFixed(2)} per URL)`, ''],
    ['  stage: DB read (sum over shards)', `${Math.round(t.readMs)} ms`, ''],
    ['  stage: render', `${Math.round(t.renderMs)} ms`, ''],
    ['  stage: gzip', `${Math.round(t.gzipMs)} ms`, ''],
    ['  stage: store', `${Math.round(t.storeMs)} ms`, ''],
    ['shards in the site', fullBuild.shardsRendered, ''],
    [
      'one change: shards re-rendered',
      `${changeBuild.shardsRendered} (+ index), ${changeBuild.shardsSkipped} skipped`,
      '1',
    ],
    [
      `one change: API 200 -> served (median of ${CHANGES})`,
      `${Math.round(changeMs)} ms (each: ${changes.map((change) => Math.round(change.ms)).join(', ')}; API answered in ${Math.round(median(changes.map((change) => change.apiMs)))} ms)`,
      '<= 300 ms',
    ],
    ['  where it went (medians)', '', ''],
    ...phases.map(([name, ms]) => [`  ${name}`, `${Math.round(ms)} ms`, '']),
    [
      'one change: CPU, worker + Postgres backends',
      `${Math.round(changeCpu * 1000)} ms (the worker ${Math.round(median(changes.map((change) => change.workerCpu)) * 1000)} ms)`,
      '',
    ],
    ['change visible in the file', changed ? 'yes' : 'NO', ''],
    ['worker peak RSS', `${worker.peakRssMb().toFixed(0)} MB`, '< 300 MB'],
  ]);
  console.log(
    `\n(2 cores; stage sums add up the work of every shard job; the figures move by 10-50% with the machine's load, shown at the start)`,
  );
  printResult('build', [
    { name: 'full build', value: fullSeconds, unit: 's', better: 'lower' },
    { name: 'full build CPU: worker + Postgres', value: workerCpu + postgresCpu, unit: 's', better: 'lower' },
    { name: 'full build: urls rows read per URL', value: rowsRead / URLS, unit: 'rows', better: 'lower' },
    { name: 'full build / sitemap package', value: ourRate / peerRate, unit: 'x', better: 'higher' },
    { name: 'one change: API 200 -> served', value: changeMs, unit: 'ms', better: 'lower' },
    { name: 'one change: CPU worker + Postgres', value: changeCpu * 1000, unit: 'ms', better: 'lower' },
    { name: 'worker peak RSS', value: worker.peakRssMb(), unit: 'MB', better: 'lower' },
  ]);
  console.log(`shard checksum ${createHash('sha256').update(served.body).digest('hex').slice(0, 12)}`);

  await Promise.all([worker.stop(), publicServer.stop(), api.stop()]);
  await pool.end();
  await env.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
