// Ingest benchmark: 1,000,000 URLs with three hreflang alternates each, into a scratch database,
// through the API running as its own process:
//   1. NDJSON import: one streamed POST …/urls/import, the body written to a temporary file first
//      and streamed from it, so generating it costs the timed phase nothing (a real client runs
//      on another machine; here it would take CPU from the API and Postgres on the same cores);
//   2. PUT batches of 10,000 (a fresh site, the same URLs), one request at a time;
//   3. raw COPY of equivalent rows (the URL row with its fragment, hashes and the alternates as
//      JSON) into a plain table without indexes, from this process: what Postgres itself takes;
//   4. the same rows, encoded beforehand in COPY's binary format as the import sends them, COPYed
//      into the platform's own `urls` table (in a database of its own, empty as the import's
//      was), indexes and all, 2,000 to a transaction: the floor the data model sets, with no
//      validation, rendering or lookups.
// Each API phase runs in a fresh API process started as production starts it (compiled, with
// APP_NODE_FLAGS); its peak RSS is VmHWM from /proc/<pid>/status (also sampled every 100 ms).
// No worker runs: builds are not part of ingest.
//
//   npm run bench:ingest                         1,000,000 URLs, all phases
//   npm run bench:ingest -- --urls 100000        a quicker run
//   npm run bench:ingest -- --skip-put           NDJSON and COPY only
//   npm run bench:ingest -- --only put           one phase (ndjson, put, raw-copy, model-copy); the
//                                                phases that need today's libs stay out of an old base
//   npm run bench:ingest -- --api-node-options=--max-old-space-size=256
//                                                NODE_OPTIONS for the API process (V8 heap limit)
//   npm run bench:ingest -- --api-node-args="--cpu-prof --cpu-prof-dir=/tmp/prof"
//                                                Node flags for the API that NODE_OPTIONS refuses
//
// DATABASE_URL / REDIS_URL as for npm start (else an embedded PostgreSQL, a local Redis).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Redis } from 'ioredis';
import { appArgs, childProcessEnv, developmentSiteVerification, loadServiceEnv } from '@sitemaps/config';
import { applyMigrations, copyRows, FieldArena, type CopyType, type EncodedFields } from '@sitemaps/data';
import { locHash } from '@sitemaps/domain';
import { ensurePostgres, ensureRedis, freePort } from '@sitemaps/local-services';
import { printResult } from './support/bench-result';

const ROOT = path.resolve(__dirname, '..');
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
const TARGET_URLS_PER_SEC = 50_000;
const TARGET_RSS_MB = 400;

interface Options {
  urls: number;
  batch: number;
  put: boolean;
  /** Only this phase, when given. */
  only: Phase | undefined;
  apiNodeOptions: string | undefined;
  /** Node flags after the API's own (those NODE_OPTIONS refuses, e.g. --cpu-prof; a V8 flag given again wins). */
  apiNodeArgs: string[];
}

const PHASES = ['ndjson', 'put', 'raw-copy', 'model-copy'] as const;
type Phase = (typeof PHASES)[number];

interface PhaseResult {
  name: string;
  urls: number;
  seconds: number;
  peakRssMb: number | null;
  note: string;
  /** CPU seconds spent meanwhile, where /proc tells. */
  cpu?: CpuSplit;
}

interface CpuSplit {
  api: number;
  postgres: number;
  bench: number;
}

/** utime + stime of a process, in seconds (USER_HZ is 100 on Linux); 0 once it is gone. */
function processCpuSeconds(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Every postgres process of the machine, by pid (backends come and go: each is counted while it lives). */
function postgresCpu(): Map<string, number> {
  const cpu = new Map<string, number>();
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') cpu.set(pid, processCpuSeconds(pid));
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // no /proc
  }
  return cpu;
}

/** Samples who burns the CPU during a phase: the API process, Postgres' processes and this one. */
class CpuMeter {
  private readonly pg = new Map<string, { first: number; last: number }>();
  private readonly bench = process.cpuUsage();
  private readonly apiStart: number;
  private apiLast: number;
  private readonly timer: NodeJS.Timeout;

  /** `apiPid`: the API process, if the phase has one. */
  constructor(private readonly apiPid?: number) {
    this.apiStart = apiPid === undefined ? 0 : processCpuSeconds(apiPid);
    this.apiLast = this.apiStart;
    this.poll();
    this.timer = setInterval(() => this.poll(), 250);
  }

  private poll(): void {
    if (this.apiPid !== undefined) this.apiLast = Math.max(this.apiLast, processCpuSeconds(this.apiPid));
    for (const [pid, seconds] of postgresCpu()) {
      const seen = this.pg.get(pid);
      if (seen) seen.last = seconds;
      else this.pg.set(pid, { first: seconds, last: seconds });
    }
  }

  stop(): CpuSplit {
    this.poll();
    clearInterval(this.timer);
    const bench = process.cpuUsage(this.bench);
    let postgres = 0;
    for (const { first, last } of this.pg.values()) postgres += last - first;
    return { api: this.apiLast - this.apiStart, postgres, bench: (bench.user + bench.system) / 1e6 };
  }
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    urls: 1_000_000,
    batch: 10_000,
    put: true,
    only: undefined,
    apiNodeOptions: undefined,
    apiNodeArgs: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const at = arg.indexOf('=');
    const flag = at === -1 ? arg : arg.slice(0, at);
    const text = () => (at === -1 ? (argv[++i] as string) : arg.slice(at + 1));
    if (flag === '--urls') options.urls = Number(text());
    else if (flag === '--batch') options.batch = Number(text());
    else if (flag === '--skip-put') options.put = false;
    else if (flag === '--api-node-options') options.apiNodeOptions = text();
    else if (flag === '--api-node-args') options.apiNodeArgs = text().split(' ').filter(Boolean);
    else if (flag === '--only') {
      const phase = text();
      if (!(PHASES as readonly string[]).includes(phase)) throw new Error(`--only wants one of ${PHASES.join(', ')}`);
      options.only = phase as Phase;
    } else
      throw new Error(
        `unknown flag ${flag} (use --urls N, --batch N, --skip-put, --only PHASE, --api-node-options OPTS)`,
      );
  }
  if (!Number.isInteger(options.urls) || options.urls < 1) throw new Error('--urls must be a positive integer');
  return options;
}

// --- input -----------------------------------------------------------------------------

/** Product pages with varied slugs (seeded), as in the render benchmark: gzip and btrees see real variety. */
function* urlEntries(count: number, host: string): Generator<{ path: string; lastmod: string; loc: string }> {
  let seed = 0x1e57;
  const rnd = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const words =
    'red blue green black white classic modern leather cotton wool linen oak walnut steel glass ceramic vintage organic premium compact deluxe portable wireless smart'.split(
      ' ',
    );
  const categories = 'shoes shirts jackets lamps tables chairs sofas rugs mugs plates bags hats watches phones'.split(
    ' ',
  );
  const start = Date.UTC(2023, 0, 1);
  for (let i = 0; i < count; i++) {
    const slug = `${words[Math.floor(rnd() * words.length)]}-${words[Math.floor(rnd() * words.length)]}-${words[Math.floor(rnd() * words.length)]}`;
    const p = `/${categories[Math.floor(rnd() * categories.length)]}/${slug}-${i}`;
    yield {
      path: p,
      lastmod: `${new Date(start + Math.floor(rnd() * 5e10)).toISOString().slice(0, 19)}Z`,
      loc: `https://${host}${p}`,
    };
  }
}

/** The API's URL entry: three alternates, the x-default being the page itself. */
function entryOf(u: { path: string; lastmod: string; loc: string }) {
  return {
    loc: u.loc,
    lastmod: u.lastmod,
    alternates: [
      { hreflang: 'en-GB', href: `https://shop.example.co.uk${u.path}` },
      { hreflang: 'de-DE', href: `https://shop.example.de${u.path}` },
      { hreflang: 'x-default', href: u.loc },
    ],
  };
}

function* ndjsonChunks(count: number, host: string): Generator<Buffer> {
  let buffer = '';
  for (const u of urlEntries(count, host)) {
    buffer += `${JSON.stringify(entryOf(u))}\n`;
    if (buffer.length >= 256 * 1024) {
      yield Buffer.from(buffer);
      buffer = '';
    }
  }
  if (buffer) yield Buffer.from(buffer);
}

// --- the API as a child process -----------------------------------------------------------

class ApiProcess {
  private samples: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {}

  static async start(env: Record<string, string>, nodeArgs: readonly string[] = []): Promise<ApiProcess> {
    const port = await freePort();
    // After the app's own flags, so that one given here (--max-semi-space-size) wins.
    const args = appArgs('api');
    const child = spawn(process.execPath, [...args.slice(0, -1), ...nodeArgs, ...args.slice(-1)], {
      cwd: ROOT,
      env: childProcessEnv({
        // A base older than site verification (bench:compare against d8dc6d8) has no such function.
        SITE_VERIFICATION: typeof developmentSiteVerification === 'function' ? developmentSiteVerification() : 'off',
        ...env,
        API_PORT: String(port),
        API_HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      }),
      // Diagnostic flags (--trace-gc) write to stdout.
      stdio: ['ignore', nodeArgs.length > 0 ? 'inherit' : 'ignore', 'inherit'],
    });
    const api = new ApiProcess(child, `http://127.0.0.1:${port}`);
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}`);
      if (
        await fetch(`${api.baseUrl}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (Date.now() > deadline) throw new Error('the API did not come up within 90 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return api;
  }

  status(field: 'VmRSS' | 'VmHWM'): number | null {
    try {
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
        readFileSync(`/proc/${this.child.pid}/status`, 'utf8'),
      );
      return match ? Number(match[1]) / 1024 : null;
    } catch {
      return null;
    }
  }

  sample(): void {
    this.timer = setInterval(() => {
      const rss = this.status('VmRSS');
      if (rss !== null) this.samples.push(rss);
    }, 100);
  }

  /** VmHWM (the kernel's high-water mark) where there is /proc, else the highest sample. */
  peakRssMb(): number | null {
    if (this.timer) clearInterval(this.timer);
    return this.status('VmHWM') ?? (this.samples.length ? Math.max(...this.samples) : null);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    await new Promise((resolve) => this.child.once('exit', resolve));
  }

  async call(method: string, pathname: string, key: string, body?: unknown): Promise<any> {
    const response = await fetch(`${this.baseUrl}${pathname}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : undefined;
  }

  /** Streams `chunks` as one request body, honouring backpressure. */
  upload(pathname: string, key: string, chunks: Iterable<Buffer> | Readable): Promise<any> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        `${this.baseUrl}${pathname}`,
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
      pipeline(chunks instanceof Readable ? chunks : Readable.from(chunks), request).catch(reject);
    });
  }
}

// --- phases -------------------------------------------------------------------------------

async function tenantAndSite(api: ApiProcess, hostname: string): Promise<{ key: string; siteId: string }> {
  const { apiKey } = await api.call('POST', '/v1/tenants', ADMIN_KEY, { name: `bench ${hostname}` });
  const site = await api.call('POST', '/v1/sites', apiKey, { hostname });
  return { key: apiKey, siteId: site.id };
}

async function ndjsonPhase(env: Record<string, string>, options: Options): Promise<PhaseResult & { siteId: string }> {
  const host = 'ndjson.bench.example.com';
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-ingest-'));
  const body = path.join(dir, 'urls.ndjson');
  await pipeline(Readable.from(ndjsonChunks(options.urls, host)), createWriteStream(body));
  const api = await ApiProcess.start(env, options.apiNodeArgs);
  try {
    const { key, siteId } = await tenantAndSite(api, host);
    api.sample();
    const meter = new CpuMeter(api.child.pid);
    const started = performance.now();
    const result = await api.upload(
      `/v1/sites/${siteId}/urls/import`,
      key,
      createReadStream(body, { highWaterMark: 1024 * 1024 }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = meter.stop();
    if (result.stored !== options.urls)
      throw new Error(`NDJSON import stored ${result.stored} of ${options.urls}: ${JSON.stringify(result)}`);
    return {
      name: 'NDJSON import',
      urls: options.urls,
      seconds,
      peakRssMb: api.peakRssMb(),
      note: 'one streamed POST …/urls/import',
      siteId,
      cpu,
    };
  } finally {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function putPhase(env: Record<string, string>, options: Options): Promise<PhaseResult> {
  const api = await ApiProcess.start(env, options.apiNodeArgs);
  try {
    const host = 'put.bench.example.com';
    const { key, siteId } = await tenantAndSite(api, host);
    api.sample();
    const meter = new CpuMeter(api.child.pid);
    const started = performance.now();
    let batch: unknown[] = [];
    const send = async () => {
      const result = await api.call('PUT', `/v1/sites/${siteId}/urls`, key, batch);
      if (result.errors.length > 0)
        throw new Error(`PUT rejected entries: ${JSON.stringify(result.errors.slice(0, 3))}`);
      batch = [];
    };
    for (const u of urlEntries(options.urls, host)) {
      batch.push(entryOf(u));
      if (batch.length === options.batch) await send();
    }
    if (batch.length > 0) await send();
    const seconds = (performance.now() - started) / 1000;
    const cpu = meter.stop();
    return {
      name: `PUT batches of ${options.batch.toLocaleString('en-US')}`,
      urls: options.urls,
      seconds,
      peakRssMb: api.peakRssMb(),
      note: 'sequential requests',
      cpu,
    };
  } finally {
    await api.stop();
  }
}

/**
 * What Postgres takes when nothing but COPY happens, into a plain table without indexes, keys or
 * triggers, from this process: one row per URL (loc, hashes, lastmod, the rendered fragment, its
 * size, the alternates as JSON), the shape the import stores. The text is built with template
 * strings and pre-drawn random hashes, so this process is not the bottleneck.
 */
async function rawCopyPhase(databaseUrl: string, options: Options): Promise<PhaseResult> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(`CREATE TABLE bench_raw_urls (site_id uuid, loc_hash bytea, loc text, lastmod text, lastmod_at timestamptz, content_hash bytea,
                     fragment text, fragment_size int, ns_mask int, alternates json)`);
    const siteId = randomUUID();
    const hashes = Array.from({ length: 4_096 }, () => randomBytes(32).toString('hex'));
    const hash = (i: number) => `\\\\x${hashes[i & 4095]}`;
    function* text(): Generator<string> {
      let buffer = '';
      let i = 0;
      for (const u of urlEntries(options.urls, 'copy.bench.example.com')) {
        const { fragment, alternates } = storedForms(u);
        buffer += `${siteId}\t${hash(i)}\t${u.loc}\t${u.lastmod}\t${u.lastmod}\t${hash(i * 7)}\t${fragment}\t${fragment.length}\t1\t${alternates}\n`;
        i++;
        if (buffer.length >= 256 * 1024) {
          yield buffer;
          buffer = '';
        }
      }
      if (buffer) yield buffer;
    }
    const started = performance.now();
    await pipeline(Readable.from(text()), db.query(copyFrom('COPY bench_raw_urls FROM STDIN')));
    const seconds = (performance.now() - started) / 1000;
    return {
      name: 'raw COPY, row per URL',
      urls: options.urls,
      seconds,
      peakRssMb: null,
      note: 'URL row with alternates as JSON; no index',
    };
  } finally {
    await db.query('DROP TABLE IF EXISTS bench_raw_urls').catch(() => undefined);
    await db.end();
  }
}

/** The fragment and alternates JSON the import stores for a bench URL (as COPY text). */
function storedForms(u: { path: string; lastmod: string; loc: string }): { fragment: string; alternates: string } {
  const uk = `https://shop.example.co.uk${u.path}`;
  const de = `https://shop.example.de${u.path}`;
  return {
    fragment: `<url><loc>${u.loc}</loc><lastmod>${u.lastmod}</lastmod><xhtml:link rel="alternate" hreflang="de-DE" href="${de}"/><xhtml:link rel="alternate" hreflang="en-GB" href="${uk}"/><xhtml:link rel="alternate" hreflang="x-default" href="${u.loc}"/></url>`,
    alternates: `[{"hreflang":"de-DE","href":"${de}"},{"hreflang":"en-GB","href":"${uk}"},{"hreflang":"x-default","href":"${u.loc}"}]`,
  };
}

/**
 * The floor of the data model: the rows the import stores (one URL row with its links, real
 * hashes), encoded beforehand into COPY's binary format as the import sends it (with the
 * platform's own encoder), then COPYed straight into the platform's `urls` table for a fresh
 * site, indexes and all, one transaction of 2,000 URLs at a time as the import commits them.
 * Only Postgres' own work and the socket: no parsing, validation, rendering or lookups.
 */
async function modelCopyPhase(databaseUrl: string, options: Options): Promise<PhaseResult> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const tenant = await db.query<{ id: string }>(
      `INSERT INTO tenants (id, name) VALUES (gen_random_uuid(), 'model copy') RETURNING id`,
    );
    const site = await db.query<{ id: string }>(
      `INSERT INTO sites (id, tenant_id, hostname, indexnow_key, updated_at) VALUES (gen_random_uuid(), $1, 'model.bench.example.com', gen_random_uuid()::text, now()) RETURNING id`,
      [tenant.rows[0]?.id],
    );
    const siteId = site.rows[0]?.id as string;
    const shard = await db.query<{ id: string }>(
      `INSERT INTO shards (site_id, section, ordinal) VALUES ($1, '', 1) RETURNING id`,
      [siteId],
    );
    const shardId = shard.rows[0]?.id as string;
    const columns = {
      site_id: 'uuid',
      loc_hash: 'bytea',
      loc: 'text',
      section: 'text',
      shard_id: 'int8',
      lastmod: 'text',
      lastmod_at: 'timestamptz',
      lastmod_given: 'bool',
      content_hash: 'bytea',
      fragment: 'text',
      fragment_size: 'int4',
      ns_mask: 'int4',
      alternates: 'json',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    } as const satisfies Record<string, CopyType>;
    const types = Object.values(columns);
    const sha256 = (text: string) => createHash('sha256').update(text).digest();
    const arena = new FieldArena();
    const now = new Date();
    const batches: EncodedFields[][] = [];
    let batch: EncodedFields[] = [];
    for (const u of urlEntries(options.urls, 'model.bench.example.com')) {
      const { fragment, alternates } = storedForms(u);
      batch.push(
        arena.encode(types, [
          siteId,
          locHash(u.loc),
          u.loc,
          '',
          shardId,
          u.lastmod,
          new Date(u.lastmod),
          true,
          sha256(fragment),
          fragment,
          Buffer.byteLength(fragment),
          1,
          alternates,
          now,
          now,
        ]),
      );
      if (batch.length === 2_000) {
        batches.push(batch);
        batch = [];
      }
    }
    if (batch.length > 0) batches.push(batch);
    const meter = new CpuMeter();
    const started = performance.now();
    for (const rows of batches) {
      await db.query('BEGIN');
      await db.query('SET LOCAL synchronous_commit = off');
      await copyRows(db, { table: 'urls', columns, rows, toRow: (encoded) => ({ encoded, rest: [] }) });
      await db.query('COMMIT');
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = meter.stop();
    return {
      name: 'COPY into the tables',
      urls: options.urls,
      seconds,
      peakRssMb: null,
      note: "urls with its indexes, binary, encoded beforehand: the data model's floor",
      cpu,
    };
  } finally {
    await db.end();
  }
}

// --- main ---------------------------------------------------------------------------------

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const build = spawnSync(process.execPath, ['scripts/build.js'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stderr}`);
  const services = loadServiceEnv();
  const postgres = await ensurePostgres({
    databaseUrl: services.databaseUrl,
    dataDir: services.dataDir,
    log: console.log,
  });
  const redis = await ensureRedis({ redisUrl: services.redisUrl, dataDir: services.dataDir, log: console.log });
  const database = `sitemaps_bench_ingest_${process.pid}`;
  const admin = new Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = withDatabase(postgres.url, database);
  const queuePrefix = `bench-ingest-${process.pid}`;
  const results: PhaseResult[] = [];
  try {
    await applyMigrations(databaseUrl);
    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      ADMIN_API_KEY: ADMIN_KEY,
      QUEUE_PREFIX: queuePrefix,
    };
    if (options.apiNodeOptions) env.NODE_OPTIONS = options.apiNodeOptions;
    console.log(
      `ingest benchmark: ${options.urls.toLocaleString('en-US')} URLs with 3 alternates each; ${postgres.description}${options.apiNodeOptions ? `; API NODE_OPTIONS=${options.apiNodeOptions}` : ''}`,
    );

    const runs = (phase: Phase) => options.only === undefined || options.only === phase;
    if (runs('ndjson')) {
      const ndjson = await ndjsonPhase(env, options);
      results.push(ndjson);
      const check = new Client({ connectionString: databaseUrl });
      await check.connect();
      const stored = await check.query(
        `SELECT count(*) AS urls, count(alternates) AS linked FROM urls WHERE site_id = $1`,
        [ndjson.siteId],
      );
      await check.end();
      console.log(`  NDJSON check: ${stored.rows[0].urls} urls, ${stored.rows[0].linked} with hreflang links`);
    }
    if (options.put && runs('put')) results.push(await putPhase(env, options));
    if (runs('raw-copy')) results.push(await rawCopyPhase(databaseUrl, options));
    if (runs('model-copy')) {
      // Its own database, so its indexes start as empty as the NDJSON import's did.
      await admin.query(`CREATE DATABASE ${database}_floor`);
      const floorUrl = withDatabase(postgres.url, `${database}_floor`);
      await applyMigrations(floorUrl);
      results.push(await modelCopyPhase(floorUrl, options));
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${database}_floor WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    const client = new Redis(redis.url);
    const keys = await client.keys(`${queuePrefix}*`);
    if (keys.length > 0) await client.del(...keys);
    client.disconnect();
    await redis.stop();
    await postgres.stop();
  }
  report(results);
}

function report(results: PhaseResult[]): void {
  const rate = (r: PhaseResult) => r.urls / r.seconds;
  printResult(
    'ingest',
    results.flatMap((r) => [
      { name: `${r.name} URLs/s`, value: rate(r), unit: 'URLs/s', better: 'higher' as const },
      r.peakRssMb === null
        ? null
        : { name: `${r.name} peak RSS`, value: r.peakRssMb, unit: 'MB', better: 'lower' as const },
      r.cpu && r.cpu.api > 0
        ? { name: `${r.name} API CPU/URL`, value: (r.cpu.api / r.urls) * 1e6, unit: 'µs', better: 'lower' as const }
        : null,
    ]),
  );
  console.log('');
  console.log(
    `${'phase'.padEnd(26)} ${'URLs'.padStart(10)} ${'seconds'.padStart(8)} ${'URLs/s'.padStart(9)} ${'peak RSS'.padStart(9)}  note`,
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(26)} ${r.urls.toLocaleString('en-US').padStart(10)} ${r.seconds.toFixed(1).padStart(8)} ${Math.round(rate(r)).toLocaleString('en-US').padStart(9)} ${(r.peakRssMb === null ? '-' : `${Math.round(r.peakRssMb)} MB`).padStart(9)}  ${r.note}`,
    );
  }
  const ndjson = results.find((r) => r.name === 'NDJSON import');
  const copyRow = results.find((r) => r.name === 'raw COPY, row per URL');
  const model = results.find((r) => r.name === 'COPY into the tables');
  const put = results.find((r) => r.name.startsWith('PUT'));
  if (!ndjson || !copyRow || !model) return;
  const ratio = rate(ndjson) / rate(copyRow);
  console.log('');
  console.log(
    `NDJSON / raw COPY: ${ratio.toFixed(3)}; target ≥ 0.333${put ? `; NDJSON / PUT: ${(rate(ndjson) / rate(put)).toFixed(2)}` : ''}`,
  );
  if (ndjson.cpu) {
    const perUrl = (seconds: number) => `${((seconds / ndjson.urls) * 1e6).toFixed(1)} µs`;
    const { api, postgres, bench } = ndjson.cpu;
    console.log(
      `CPU per URL during the NDJSON import: API ${perUrl(api)}, Postgres ${perUrl(postgres)}, this client ${perUrl(bench)} ` +
        `(busy: API ${((api / ndjson.seconds) * 100).toFixed(0)}% of a core, Postgres ${((postgres / ndjson.seconds) * 100).toFixed(0)}%; ${cpus().length} cores)`,
    );
  }
  console.log(
    `NDJSON / COPY into the tables: ${(rate(ndjson) / rate(model)).toFixed(2)} (what validation, rendering, lookups and shard upkeep add to Postgres' own floor)`,
  );
  if (model.cpu) {
    // What the absolute target leaves: every core's time divided among the URLs of a second.
    const budget = (cpus().length / TARGET_URLS_PER_SEC) * 1e6;
    console.log(
      `At ${TARGET_URLS_PER_SEC.toLocaleString('en-US')} URLs/s, ${cpus().length} cores give ${budget.toFixed(0)} µs of CPU per URL in all; ` +
        `the floor phase alone took Postgres ${((model.cpu.postgres / model.urls) * 1e6).toFixed(1)} µs per URL and reached ${Math.round(rate(model)).toLocaleString('en-US')} URLs/s`,
    );
  }
  console.log(
    `targets: ≥ ${TARGET_URLS_PER_SEC.toLocaleString('en-US')} URLs/s ${rate(ndjson) >= TARGET_URLS_PER_SEC ? 'met' : 'NOT met'}; ` +
      `≥ 1/3 of raw COPY (row per URL) ${ratio >= 1 / 3 ? 'met' : 'NOT met'}; ` +
      `API peak RSS < ${TARGET_RSS_MB} MB in every import phase ${[ndjson, put].every((r) => r === undefined || (r.peakRssMb !== null && r.peakRssMb < TARGET_RSS_MB)) ? 'met' : 'NOT met'}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
