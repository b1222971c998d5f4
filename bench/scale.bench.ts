// npm run bench:scale [-- --steps 1000000,2000000,5000000,10000000 --chunk 1000000 --min-free-gb 15]
// One site grown to millions of URLs (each with three hreflang alternates), in a scratch database
// of its own, with the real apps (api, worker, public as separate processes), served to a light
// crawler all along. URLs go in the way a user would send millions: NDJSON uploads
// (POST …/urls/import) of `--chunk` URLs each, streamed. At each checkpoint (`--steps`):
// VACUUM (ANALYZE) of `urls`, the table's and each index's size, a full build, the manifest's size,
// cache misses and a hit on the public server, one changed URL from the API's 200 to the new file
// served, and the planner's plans for the queries whose cost could grow with the site (a shard's id
// span and fragment stream, an ingest batch's lookup by loc hash).
//
// Flat or not is read from CPU seconds per URL, not wall time: the machine is shared, and wall
// time grows with other people's load. CPU is taken from /proc for the api, worker and public processes
// and for every Postgres backend of the scratch database (pids from pg_stat_activity, sampled every
// 250 ms; a backend's whole life counts, so one that exits between samples loses its last 250 ms).
// Postgres' shared processes (WAL writer, checkpointer) are not counted: other databases use them.
// Every checkpoint is also appended as JSON to `--out` (default /tmp/bench-scale.jsonl).
// Not for CI: 10,000,000 URLs take about 12 GB of disk, and hours on a shared 2-core machine.
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import { Pool } from 'pg';
import { readIdSpan, UrlWriteRepository, type Queryable } from '@sitemaps/data';
import { freePort } from '@sitemaps/local-services';
import { createBenchEnv, peakRssMb, printTable, startApp, treeCpuSeconds } from './support/bench-env';

const HOST = 'scale.example.com';
const ADMIN = 'bench-admin-key-0123456789';
const LANGS = ['en', 'de', 'fr'] as const;
const LOOKUP_BATCH = 10_000;

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? '');
}

function steps(): number[] {
  const values = option('steps', '1000000,2000000,5000000,10000000').split(',').map(Number);
  if (values.some((v) => !Number.isInteger(v) || v < 10_000) || values.some((v, i) => i > 0 && v <= values[i - 1]!))
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

function* ndjson(from: number, to: number): Generator<Buffer> {
  let text = '';
  for (let i = from; i < to; i++) {
    text += `${JSON.stringify(entry(i))}\n`;
    if (text.length >= 256 * 1024) {
      yield Buffer.from(text);
      text = '';
    }
  }
  if (text) yield Buffer.from(text);
}

interface Got {
  status: number;
  etag: string | undefined;
  body: Buffer;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host: HOST, 'accept-encoding': 'gzip', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

/** utime + stime of one process in seconds, and its start time (to tell a reused pid); null once gone. */
function procCpu(pid: number): { seconds: number; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { seconds: (Number(fields[11]) + Number(fields[12])) / 100, start: fields[19] ?? '' };
  } catch {
    return null;
  }
}

/** CPU seconds of every backend the scratch database has had, summed over their lives so far. */
class PostgresCpu {
  private readonly seen = new Map<string, number>();
  private pids: number[] = [];
  private readonly timer: NodeJS.Timeout;
  private listing = false;

  constructor(private readonly pool: Pool) {
    this.timer = setInterval(() => void this.sample(), 250);
  }

  private async list(): Promise<void> {
    if (this.listing) return;
    this.listing = true;
    try {
      const { rows } = await this.pool.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
      );
      this.pids = rows.map((r) => r.pid);
    } catch {
      // a lost connection: keep the last list
    } finally {
      this.listing = false;
    }
  }

  private read(): void {
    for (const pid of this.pids) {
      const cpu = procCpu(pid);
      if (cpu) this.seen.set(`${pid}:${cpu.start}`, cpu.seconds);
    }
  }

  private async sample(): Promise<void> {
    await this.list();
    this.read();
  }

  async total(): Promise<number> {
    await this.sample();
    let seconds = 0;
    for (const value of this.seen.values()) seconds += value;
    return seconds;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** A crawler in the background: the index (half the time with If-None-Match) and shards, ~5 a second. */
class Crawler {
  readonly statuses = new Map<number, number>();
  private paths: string[] = [];
  private etag = '';
  private stopped = false;
  private done: Promise<void> | undefined;
  worstMs = 0;

  constructor(private readonly port: number) {}

  /** From the first publish on (before it, every answer is a 404). */
  start(): void {
    this.done ??= this.run();
  }

  setShards(paths: string[]): void {
    this.paths = paths;
  }

  private async run(): Promise<void> {
    for (let n = 0; !this.stopped; n++) {
      const path =
        n % 2 === 0 || this.paths.length === 0
          ? '/sitemap.xml'
          : (this.paths[Math.floor(Math.random() * this.paths.length)] as string);
      const started = performance.now();
      try {
        const res = await get(
          this.port,
          path,
          path === '/sitemap.xml' && n % 4 === 0 && this.etag ? { 'if-none-match': this.etag } : {},
        );
        if (path === '/sitemap.xml' && res.status === 200 && res.etag) this.etag = res.etag;
        this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
      } catch {
        this.statuses.set(0, (this.statuses.get(0) ?? 0) + 1);
      }
      this.worstMs = Math.max(this.worstMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  tally(): string {
    return [...this.statuses].map(([status, count]) => `${count} × ${status || 'error'}`).join(', ');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}

function freeGb(): number {
  const out = execFileSync('df', ['-B1', '--output=avail', '/'], { encoding: 'utf8' });
  return Number(out.trim().split('\n').pop()) / 1024 ** 3;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const perUrl = (bytes: number, urls: number) => `${(bytes / urls).toFixed(0)} B/URL`;
const us = (seconds: number, urls: number) => ((seconds / urls) * 1e6).toFixed(2);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const targets = steps();
  const chunk = Number(option('chunk', '1000000'));
  const minFreeGb = Number(option('min-free-gb', '15'));
  const out = option('out', '/tmp/bench-scale.jsonl');
  console.log(
    `bench:scale, steps ${targets.join(', ')}, uploads of ${chunk}; node ${process.version}; ` +
      `load ${os.loadavg()[0]?.toFixed(1)}; ${freeGb().toFixed(0)} GB free`,
  );
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
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  const upload = (path: string, key: string, body: Readable): Promise<any> =>
    new Promise((resolve, reject) => {
      const request = http.request(
        `http://127.0.0.1:${apiPort}${path}`,
        { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' } },
        (response) => {
          const parts: Buffer[] = [];
          response.on('data', (part: Buffer) => parts.push(part));
          response.on('end', () => {
            const text = Buffer.concat(parts).toString();
            if ((response.statusCode ?? 500) >= 300)
              reject(new Error(`upload: ${response.statusCode} ${text.slice(0, 500)}`));
            else resolve(JSON.parse(text));
          });
        },
      );
      request.on('error', reject);
      pipeline(body, request).catch(reject);
    });
  const tenant = await call('POST', '/v1/tenants', ADMIN, { name: 'Scale' });
  const site = await call('POST', '/v1/sites', tenant.apiKey, { hostname: HOST });
  const worker = await startApp('worker', appEnv, /worker serving queues/);
  const publicServer = await startApp('public', { ...appEnv, LOG_LEVEL: 'info' }, /public server listening/);
  const pool = new Pool({ connectionString: env.databaseUrl, max: 4 });
  // An idle connection ended from outside (a shared server's other tests) costs a reconnect, not the run.
  pool.on('error', (error) => console.error(`idle connection lost: ${error.message}`));
  const pgCpu = new PostgresCpu(pool);
  const crawler = new Crawler(publicPort);

  /** CPU seconds of the api, worker, public server and Postgres, and wall time, spent by `work`. */
  const measured = async <T>(work: () => Promise<T>) => {
    const before = {
      api: treeCpuSeconds(api.child.pid),
      worker: treeCpuSeconds(worker.child.pid),
      public: treeCpuSeconds(publicServer.child.pid),
      pg: await pgCpu.total(),
    };
    const started = performance.now();
    const value = await work();
    const ms = performance.now() - started;
    return {
      value,
      ms,
      api: treeCpuSeconds(api.child.pid) - before.api,
      worker: treeCpuSeconds(worker.child.pid) - before.worker,
      public: treeCpuSeconds(publicServer.child.pid) - before.public,
      pg: (await pgCpu.total()) - before.pg,
    };
  };
  const latestBuild = async () => (await call('GET', `/v1/sites/${site.id}/builds?limit=1`, tenant.apiKey)).items[0];
  const waitBuild = async (buildId: string) => {
    for (;;) {
      const build = await call('GET', `/v1/sites/${site.id}/builds/${buildId}`, tenant.apiKey);
      if (build.status === 'published' || build.status === 'failed') return build;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** The build a change queued by itself (BUILD_QUIET_MS 0), once it is done; null if none came in 60 s. */
  const waitChangeBuild = async (after: string | undefined) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const build = await latestBuild();
      if (build && build.id !== after && (build.status === 'published' || build.status === 'failed')) return build;
      if ((!build || build.id === after) && Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const urlRowsRead = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // backends flush their counts within a second
    const { rows } = await pool.query<{ read: string }>(
      `SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS read FROM pg_stat_user_tables WHERE relname = 'urls'`,
    );
    return Number(rows[0]?.read ?? 0);
  };

  let stored = 0;
  let changes = 0;
  try {
    for (const target of targets) {
      // 1. Upload the step's new URLs, `chunk` at a time; each import queues a build of its shards.
      const ingestTotals = { ms: 0, api: 0, pg: 0, urls: 0 };
      const autoTotals = { ms: 0, worker: 0, pg: 0 };
      while (stored < target) {
        const free = freeGb();
        if (free < minFreeGb) throw new Error(`stopping: ${free.toFixed(1)} GB free, under ${minFreeGb} GB`);
        const to = Math.min(stored + chunk, target);
        const previous = (await latestBuild())?.id as string | undefined;
        const imported = await measured(() =>
          upload(`/v1/sites/${site.id}/urls/import`, tenant.apiKey, Readable.from(ndjson(stored, to))),
        );
        if (imported.value.stored !== to - stored)
          throw new Error(
            `import stored ${imported.value.stored} of ${to - stored}: ${JSON.stringify(imported.value)}`,
          );
        const auto = await measured(() => waitChangeBuild(previous));
        if (auto.value?.status === 'published') crawler.start();
        const n = to - stored;
        stored = to;
        Object.assign(ingestTotals, {
          ms: ingestTotals.ms + imported.ms,
          api: ingestTotals.api + imported.api,
          pg: ingestTotals.pg + imported.pg,
          urls: ingestTotals.urls + n,
        });
        Object.assign(autoTotals, {
          ms: autoTotals.ms + auto.ms,
          worker: autoTotals.worker + auto.worker,
          pg: autoTotals.pg + auto.pg,
        });
        appendFileSync(
          out,
          `${JSON.stringify({ chunkTo: stored, urls: n, s: imported.ms / 1000, apiUs: (imported.api / n) * 1e6, pgUs: (imported.pg / n) * 1e6, build: auto.value ? { s: auto.ms / 1000, shards: auto.value.shardsRendered, workerUs: (auto.worker / n) * 1e6, pgUs: (auto.pg / n) * 1e6 } : null, load: os.loadavg()[0] })}\n`,
        );
        console.log(
          `${new Date().toISOString().slice(11, 19)} ${stored}: import of ${n} in ${(imported.ms / 1000).toFixed(0)} s ` +
            `(${Math.round(n / (imported.ms / 1000))} URLs/s), CPU µs/URL api ${us(imported.api, n)} pg ${us(imported.pg, n)}; ` +
            `its build ${auto.value ? `${auto.value.shardsRendered} shards in ${(auto.ms / 1000).toFixed(0)} s, worker ${us(auto.worker, n)} pg ${us(auto.pg, n)} µs/URL` : 'none'}; ` +
            `load ${os.loadavg()[0]?.toFixed(1)}, ${freeGb().toFixed(0)} GB free`,
        );
      }

      // 2. Vacuum and sizes.
      const vacuum = await measured(() => pool.query('VACUUM (ANALYZE) urls'));
      const sizes = await pool.query<{ heap: string; toast: string; indexes: string; db: string }>(
        `SELECT pg_relation_size('urls') AS heap, pg_table_size('urls') - pg_relation_size('urls') AS toast,
                pg_indexes_size('urls') AS indexes, pg_database_size(current_database()) AS db`,
      );
      const indexes = await pool.query<{ name: string; bytes: string }>(
        `SELECT indexrelname AS name, pg_relation_size(indexrelid) AS bytes FROM pg_stat_user_indexes
          WHERE relname = 'urls' ORDER BY pg_relation_size(indexrelid) DESC`,
      );

      // 3. Full build, with the `urls` rows Postgres read for it.
      const rowsBefore = await urlRowsRead();
      const full = await measured(async () =>
        waitBuild((await call('POST', `/v1/sites/${site.id}/builds`, tenant.apiKey, { full: true })).buildId),
      );
      const rowsRead = (await urlRowsRead()) - rowsBefore;
      if (full.value.status !== 'published') throw new Error(`full build failed: ${full.value.error}`);
      const manifest = await pool.query<{ files: number; shards: number }>(
        `SELECT pg_column_size(files) AS files, pg_column_size(shards) AS shards FROM manifests WHERE site_id = $1`,
        [site.id],
      );

      // 4. Cache misses then a hit: the index just published, then five shards nobody fetched yet.
      const indexStarted = performance.now();
      const index = await get(publicPort, '/sitemap.xml');
      const indexMissMs = performance.now() - indexStarted;
      const shardPaths = [
        ...gunzipSync(index.body)
          .toString()
          .matchAll(/<loc>https:\/\/[^/]+(\/[^<]+)<\/loc>/g),
      ].map((m) => m[1] as string);
      crawler.setShards(shardPaths);
      const missMs: number[] = [];
      let shardPath = '';
      let shard: Got | undefined;
      // CPU over the five together: /proc counts in 10 ms ticks, a few ms per miss. The crawler's
      // requests in the same window are in it too.
      const misses = await measured(async () => {
        for (let k = 1; k <= 5; k++) {
          shardPath = shardPaths[Math.floor((shardPaths.length * k) / 6)] as string;
          const started = performance.now();
          shard = await get(publicPort, shardPath);
          missMs.push(performance.now() - started);
          if (shard.status !== 200) throw new Error(`${shardPath}: ${shard.status}`);
        }
      });
      const hitStarted = performance.now();
      await get(publicPort, shardPath);
      const shardHitMs = performance.now() - hitStarted;
      const served0 = shard as Got;

      // 5. One change, API 200 to the changed file served. The URL is the first of the last shard fetched.
      const firstLoc = /<loc>([^<]+)<\/loc>/.exec(gunzipSync(served0.body).toString())?.[1] as string;
      const changedIndex = (() => {
        const m = /\/(en|de|fr)\/catalogue\/product-(\d+)$/.exec(firstLoc);
        if (!m) throw new Error(`unexpected loc ${firstLoc}`);
        return Number(m[2]) * 3 + LANGS.indexOf(m[1] as (typeof LANGS)[number]);
      })();
      changes++;
      let changeMs = 0;
      const change = await measured(async () => {
        const put = await call('PUT', `/v1/sites/${site.id}/urls`, tenant.apiKey, [
          entry(changedIndex, 0.5 + changes / 1000),
        ]);
        const apiAnswered = performance.now();
        if (put.changed !== 1) throw new Error(`change not applied: ${JSON.stringify(put)}`);
        let served = served0;
        while (served.status !== 200 || served.etag === served0.etag)
          served = await get(publicPort, shardPath, { 'if-none-match': served0.etag ?? '' });
        changeMs = performance.now() - apiAnswered;
        return await waitChangeBuild(full.value.id);
      });

      // 6. The planner on the queries that must not grow with the site.
      const shardRow = await pool.query<{ shard_id: string }>(
        `SELECT shard_id FROM urls WHERE site_id = $1 AND loc = $2`,
        [site.id, firstLoc],
      );
      const plan = async (sql: string, params: unknown[]) => {
        const { rows: explained } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
        const top = explained[0]['QUERY PLAN'][0];
        const nodes: string[] = [];
        const walk = (node: any) => {
          nodes.push(`${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ''}`);
          for (const child of node.Plans ?? []) walk(child);
        };
        walk(top.Plan);
        const rows = top.Plan['Actual Rows'] as number;
        const buffers = (top.Plan['Shared Hit Blocks'] ?? 0) + (top.Plan['Shared Read Blocks'] ?? 0);
        return { ms: top['Execution Time'] as number, nodes: nodes.join(' > '), rows, buffers };
      };
      const shardId = shardRow.rows[0]?.shard_id ?? '0';
      // As a shard snapshot reads it: its id span from the two ends of (shard_id, id), then bounded by it.
      const spanPlan = await plan(
        `SELECT (SELECT id FROM (SELECT shard_id, id FROM urls WHERE (shard_id, id) >= ($1::bigint, 0::bigint)
                                  ORDER BY shard_id, id LIMIT 1) f WHERE shard_id = $1)::text AS first,
                (SELECT id FROM (SELECT shard_id, id FROM urls WHERE (shard_id, id) <= ($1::bigint, 9223372036854775807::bigint)
                                  ORDER BY shard_id DESC, id DESC LIMIT 1) l WHERE shard_id = $1)::text AS last`,
        [shardId],
      );
      const span = await readIdSpan(pool, shardId);
      const streamPlan = await plan(
        `SELECT fragment FROM urls WHERE shard_id = $1 AND id BETWEEN $2 AND $3 AND deleted_at IS NULL ORDER BY id`,
        [shardId, span?.first ?? '1', span?.last ?? '0'],
      );
      const hashes = await pool.query<{ loc_hash: Buffer }>(
        `SELECT loc_hash FROM urls TABLESAMPLE SYSTEM (2) WHERE site_id = $1 LIMIT ${LOOKUP_BATCH}`,
        [site.id],
      );
      // The lookup the ingest lib sends, as it sends it.
      const sent: [string, unknown[]][] = [];
      await new UrlWriteRepository().findExisting(
        {
          query: ((text: string, values: unknown[]) => (
            sent.push([text, values]),
            pool.query(text, values)
          )) as Queryable['query'],
        },
        site.id,
        hashes.rows.map((r) => r.loc_hash),
      );
      const lookupPlan = await plan(...sent[0]!);

      const s = sizes.rows[0] as { heap: string; toast: string; indexes: string; db: string };
      const m = manifest.rows[0];
      const heap = Number(s.heap) + Number(s.toast);
      const record = {
        urls: target,
        at: new Date().toISOString(),
        load: os.loadavg(),
        freeGb: freeGb(),
        ingest: {
          urls: ingestTotals.urls,
          s: ingestTotals.ms / 1000,
          apiUs: (ingestTotals.api / ingestTotals.urls) * 1e6,
          pgUs: (ingestTotals.pg / ingestTotals.urls) * 1e6,
        },
        importBuilds: {
          s: autoTotals.ms / 1000,
          workerUs: (autoTotals.worker / ingestTotals.urls) * 1e6,
          pgUs: (autoTotals.pg / ingestTotals.urls) * 1e6,
        },
        vacuum: { s: vacuum.ms / 1000, pgUs: (vacuum.pg / target) * 1e6 },
        bytes: {
          heap,
          indexes: Number(s.indexes),
          database: Number(s.db),
          perIndex: Object.fromEntries(indexes.rows.map((i) => [i.name, Number(i.bytes)])),
        },
        fullBuild: {
          s: full.ms / 1000,
          workerUs: (full.worker / target) * 1e6,
          pgUs: (full.pg / target) * 1e6,
          shards: full.value.shardsRendered,
          rowsReadPerUrl: rowsRead / target,
          timings: full.value.timings,
        },
        manifest: m ?? null,
        cacheMiss: {
          indexMs: indexMissMs,
          indexBytes: index.body.length,
          shardMs: missMs,
          shardHitMs,
          shardCpuMs: { public: (misses.public / 5) * 1000, pg: (misses.pg / 5) * 1000 },
        },
        oneChange: {
          servedMs: changeMs,
          workerS: change.worker,
          pgS: change.pg,
          shardsRendered: change.value?.shardsRendered,
          timings: change.value?.timings,
        },
        plans: { span: spanPlan, stream: streamPlan, lookup: lookupPlan },
        rssMb: { api: api.peakRssMb(), worker: worker.peakRssMb(), public: peakRssMb(publicServer.child.pid) },
        crawler: { statuses: Object.fromEntries(crawler.statuses), worstMs: crawler.worstMs },
      };
      appendFileSync(out, `${JSON.stringify(record)}\n`);
      const figures: [string, string][] = [
        [
          'ingest (NDJSON uploads)',
          `${Math.round(ingestTotals.urls / (ingestTotals.ms / 1000))} URLs/s; CPU µs/URL api ${record.ingest.apiUs.toFixed(1)}, pg ${record.ingest.pgUs.toFixed(1)}`,
        ],
        [
          "imports' own builds",
          `${record.importBuilds.s.toFixed(0)} s; CPU µs/URL worker ${record.importBuilds.workerUs.toFixed(1)}, pg ${record.importBuilds.pgUs.toFixed(1)}`,
        ],
        ['VACUUM (ANALYZE) urls', `${record.vacuum.s.toFixed(1)} s; pg ${record.vacuum.pgUs.toFixed(2)} µs/URL`],
        ['urls heap + TOAST', `${mb(heap)} (${perUrl(heap, target)})`],
        ['urls indexes', `${mb(Number(s.indexes))} (${perUrl(Number(s.indexes), target)})`],
        ...indexes.rows.map((i): [string, string] => [`  ${i.name}`, `${mb(Number(i.bytes))}`]),
        ['database', mb(Number(s.db))],
        [
          'full build',
          `${(full.ms / 1000).toFixed(1)} s, ${full.value.shardsRendered} shards; CPU µs/URL worker ${record.fullBuild.workerUs.toFixed(2)}, pg ${record.fullBuild.pgUs.toFixed(2)}; ${record.fullBuild.rowsReadPerUrl.toFixed(2)} rows read/URL`,
        ],
        ['manifest', m ? `files ${m.files} B, shards ${m.shards} B` : 'none'],
        ['cache miss: index', `${indexMissMs.toFixed(1)} ms (${index.body.length} B)`],
        [
          'cache miss: 5 shards',
          `median ${median(missMs).toFixed(1)} ms (${served0.body.length} B), CPU per miss public ${((misses.public / 5) * 1000).toFixed(0)} ms, pg ${((misses.pg / 5) * 1000).toFixed(0)} ms; hit ${shardHitMs.toFixed(1)} ms`,
        ],
        [
          'one change: API 200 -> served',
          `${changeMs.toFixed(0)} ms; CPU worker ${(change.worker * 1000).toFixed(0)} ms, pg ${(change.pg * 1000).toFixed(0)} ms, ${change.value?.shardsRendered ?? '?'} shard(s)`,
        ],
        ['plan: shard id span', `${spanPlan.ms.toFixed(2)} ms, ${spanPlan.buffers} buffers, ${spanPlan.nodes}`],
        [
          'plan: shard stream',
          `${streamPlan.ms.toFixed(1)} ms, ${streamPlan.rows} rows, ${streamPlan.buffers} buffers, ${streamPlan.nodes}`,
        ],
        [
          `plan: lookup of ${hashes.rows.length} hashes`,
          `${lookupPlan.ms.toFixed(1)} ms, ${lookupPlan.buffers} buffers, ${lookupPlan.nodes}`,
        ],
        [
          'peak RSS api / worker / public',
          `${record.rssMb.api.toFixed(0)} / ${record.rssMb.worker.toFixed(0)} / ${record.rssMb.public.toFixed(0)} MB`,
        ],
        ['crawler so far', `${crawler.tally()}; slowest ${crawler.worstMs.toFixed(0)} ms`],
        ['load average, disk free', `${os.loadavg()[0]?.toFixed(1)}, ${record.freeGb.toFixed(0)} GB`],
      ];
      console.log('');
      printTable([[`${target.toLocaleString('en-US')} URLs`, ''], ...figures]);
      console.log('');
    }
  } finally {
    await crawler.stop();
    pgCpu.stop();
    await Promise.all([worker.stop(), publicServer.stop(), api.stop()]);
    await pool.end();
    await env.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
