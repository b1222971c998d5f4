// npm run bench:serve [-- --duration 10 --connections 10 --only 304 --skip-nginx --profile]
// The public server next to nginx: same bytes, same machine, same run. Seeds one site with a
// 50,000-URL gzip shard into a scratch database (bench/support), starts the public server as
// production runs it (compiled, its own process, access log on) and nginx (Debian package;
// installed with apt-get when absent and possible, else skipped with the command to run) on a
// spare loopback port with a temporary config and one worker process, like the one Node process,
// serving the same files from disk. autocannon, in a process of its own, measures requests/s and
// p99 for the shard (200), the shard with If-None-Match (304) and robots.txt. Load stays on
// 127.0.0.1, each case runs a bounded time, and everything started here is stopped at the end or
// on Ctrl-C.
//   --profile writes a V8 CPU profile of the public server to .data/bench-profile/.
import { randomUUID } from 'node:crypto';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { childProcessEnv } from '@sitemaps/config';
import { createPgPool, createPrismaClient } from '@sitemaps/data';
import { freePort, stopChild } from '@sitemaps/local-services';
import { assembleUrlset, gzipFile, renderSitemapIndex, toUrlFragment } from '@sitemaps/sitemap-xml';
import { createBlobStore, type ManifestFile } from '@sitemaps/storage';
import { arg, createBenchEnv, printTable, ROOT, startApp } from './support/bench-env';

const HOST = 'bench.example.com';
const AUTOCANNON = require.resolve('autocannon/autocannon.js');
const execFileAsync = promisify(execFile);
const SHARD_PATH = 'sitemaps/sitemap-1.xml.gz';
const URLS = 50_000;
const TARGETS = { shardShareOfNginx: 0.5, notModifiedRps: 30_000, p99Ms: 20 };
const DURATION_S = arg('duration', 10);
// Ten crawler connections at once: a closed loop, so latency is connections / throughput and
// more connections only queue (p99 grows, req/s does not).
const CONNECTIONS = arg('connections', 10);
const flag = (name: string) => process.argv.includes(`--${name}`);
const text = (name: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
};

/** What `autocannon --json` prints. */
interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}

interface Server {
  name: 'public' | 'nginx';
  baseUrl: string;
  /** Each server's own ETag of the shard, for the 304 case. */
  shardEtag: string;
}

interface Case {
  name: string;
  path: string;
  status: number;
  headers(server: Server): Record<string, string>;
}

interface Measurement {
  rps: number;
  p99: number;
  mbps: number;
  wrong: number;
}

const CASES: Case[] = [
  { name: 'shard 200', path: `/${SHARD_PATH}`, status: 200, headers: () => ({ 'accept-encoding': 'gzip' }) },
  { name: 'shard 304', path: `/${SHARD_PATH}`, status: 304, headers: (server) => ({ 'accept-encoding': 'gzip', 'if-none-match': server.shardEtag }) },
  { name: 'robots.txt 200', path: '/robots.txt', status: 200, headers: () => ({}) },
];

const cleanups: (() => Promise<unknown> | unknown)[] = [];
async function cleanup(): Promise<void> {
  for (let step = cleanups.pop(); step; step = cleanups.pop()) {
    await Promise.resolve()
      .then(step)
      .catch((error: unknown) => console.error(`cleanup: ${error instanceof Error ? error.message : String(error)}`));
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().then(() => process.exit(130)));

async function main(): Promise<void> {
  const env = await createBenchEnv('serve');
  cleanups.push(() => env.close());
  const work = await mkdtemp(path.join(tmpdir(), 'bench-serve-'));
  cleanups.push(() => rm(work, { recursive: true, force: true }));

  console.log(`seeding ${URLS.toLocaleString('en')} URLs…`);
  const seeded = await seed(env.databaseUrl);
  const www = path.join(work, 'www');
  await mkdir(path.join(www, 'sitemaps'), { recursive: true });
  await writeFile(path.join(www, SHARD_PATH), seeded.shard);
  await writeFile(path.join(www, 'robots.txt'), seeded.robots);
  // nginx workers drop root for `nobody`: the tree must be readable by anyone.
  for (const dir of [work, www, path.join(www, 'sitemaps')]) await chmod(dir, 0o755);
  console.log(`shard: ${seeded.shard.length.toLocaleString('en')} bytes gzip (${seeded.xmlBytes.toLocaleString('en')} bytes XML)`);

  const servers = [await startPublic(env, work)];
  const nginx = flag('skip-nginx') ? null : await startNginx(work, www);
  if (nginx) servers.push(nginx);

  const cases = CASES.filter((benchCase) => !text('only') || benchCase.name.includes(text('only') ?? ''));
  const load = () => loadavg().map((value) => value.toFixed(1)).join(' ');
  console.log(`\n${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${load()}; ${CONNECTIONS} connections, ${DURATION_S} s per case\n`);
  const results = new Map<string, Measurement>();
  for (const benchCase of cases) {
    for (const server of servers) {
      await measure(server, benchCase, 1); // warm-up: JIT, caches
      const result = await measure(server, benchCase, DURATION_S);
      results.set(`${server.name}/${benchCase.name}`, result);
      console.log(`  ${server.name.padEnd(6)} ${benchCase.name.padEnd(15)} ${fmt(result.rps, 0).padStart(8)} req/s  p99 ${fmt(result.p99, 1).padStart(6)} ms${result.wrong ? `  (${result.wrong} unexpected answers)` : ''}`);
    }
  }
  console.log(`load average after: ${load()}`);
  report(cases, results, nginx !== null);
}

/** A published site as the worker leaves it: one 50,000-URL shard and the index naming it. */
async function seed(databaseUrl: string) {
  const prisma = createPrismaClient(databaseUrl);
  const pool = createPgPool(databaseUrl);
  try {
    const tenant = await prisma.tenant.create({ data: { name: 'bench' } });
    const site = await prisma.site.create({ data: { tenantId: tenant.id, hostname: HOST } });
    const origin = `https://${HOST}`;
    const xml = assembleUrlset(
      Array.from({ length: URLS }, (_, i) => toUrlFragment({ loc: `${origin}/products/${(i * 7_919) % 100_003}-item-${i.toString(36)}`, lastmod: `2026-0${1 + (i % 9)}-1${i % 10}` })),
    );
    const store = createBlobStore({ driver: 'postgres', dir: '', graceMs: 0 }, prisma, pool);
    const stored = async (bytes: Buffer, kind: ManifestFile['kind'], urlCount: number) => {
      const gzip = await gzipFile([bytes]);
      const file: ManifestFile = { sha256: await store.put(site.id, gzip, bytes.length), kind, byteSize: bytes.length, gzipSize: gzip.length, urlCount, lastmod: '2026-09-19' };
      return { file, gzip };
    };
    const shard = await stored(xml, 'shard', URLS);
    const index = await stored(Buffer.from(renderSitemapIndex([{ loc: `${origin}/${SHARD_PATH}`, lastmod: '2026-09-19' }])), 'index', 0);
    const files = { 'sitemap.xml': index.file, [SHARD_PATH]: shard.file };
    await prisma.manifest.create({ data: { siteId: site.id, version: 1, buildId: randomUUID(), files: files as object, publishedAt: new Date() } });
    return { shard: shard.gzip, xmlBytes: xml.length, robots: `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n` };
  } finally {
    await prisma.$disconnect();
    await pool.end();
  }
}

/**
 * Node refuses --cpu-prof in NODE_OPTIONS, but not --require: a preload that profiles through the
 * inspector and writes the profile when the app is told to stop (before its own SIGTERM handler).
 */
async function profilerPreload(work: string): Promise<string> {
  const file = path.join(ROOT, '.data', 'bench-profile', `public-${Date.now()}.cpuprofile`);
  await mkdir(path.dirname(file), { recursive: true });
  const preload = path.join(work, 'cpu-profile.js');
  await writeFile(
    preload,
    `const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const session = new Session();
session.connect();
session.post('Profiler.enable', () => session.post('Profiler.start'));
process.prependOnceListener('SIGTERM', () => session.post('Profiler.stop', (error, result) => {
  if (!error) writeFileSync(${JSON.stringify(file)}, JSON.stringify(result.profile));
}));
`,
  );
  console.log(`CPU profile of the public server: ${file} (open in Chrome DevTools)`);
  return preload;
}

async function startPublic(env: Awaited<ReturnType<typeof createBenchEnv>>, work: string): Promise<Server> {
  const port = await freePort();
  const profile = flag('profile') ? await profilerPreload(work) : null;
  const app = await startApp(
    'public',
    {
      DATABASE_URL: env.databaseUrl,
      REDIS_URL: env.redisUrl,
      PUBLIC_PORT: String(port),
      PUBLIC_HOST: '127.0.0.1',
      NODE_ENV: 'production',
      // The access log stays on, as in production; nginx writes its own.
      LOG_LEVEL: 'info',
      ...(profile ? { NODE_OPTIONS: `--require ${profile}` } : {}),
    },
    /public server listening/,
  );
  cleanups.push(() => app.stop());
  const baseUrl = `http://127.0.0.1:${port}`;
  return { name: 'public', baseUrl, shardEtag: await shardEtag(baseUrl, app.child) };
}

async function startNginx(work: string, www: string): Promise<Server | null> {
  const binary = findNginx() ?? installNginx();
  if (!binary) return null;
  const port = await freePort();
  const conf = path.join(work, 'nginx.conf');
  const temp = path.join(work, 'nginx-temp');
  await mkdir(temp, { recursive: true });
  await writeFile(
    conf,
    `daemon off;
worker_processes 1;
pid ${work}/nginx.pid;
error_log ${work}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  types { application/gzip gz; text/plain txt; application/xml xml; }
  default_type application/octet-stream;
  access_log ${work}/nginx-access.log;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${port};
    root ${www};
    add_header Cache-Control "public, max-age=300";
    add_header X-Robots-Tag noindex;
  }
}
`,
  );
  const child = spawn(binary, ['-c', conf, '-p', work], { stdio: ['ignore', 'ignore', 'inherit'] });
  cleanups.push(() => stopChild(child));
  const baseUrl = `http://127.0.0.1:${port}`;
  return { name: 'nginx', baseUrl, shardEtag: await shardEtag(baseUrl, child) };
}

function findNginx(): string | null {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    if (spawnSync(candidate, ['-v'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return null;
}

/** apt-get as root or through password-less sudo; otherwise names the command and skips nginx. */
function installNginx(): string | null {
  const root = process.getuid?.() === 0;
  const sudo = !root && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (!root && !sudo) {
    console.log('nginx is not installed and this user cannot install it. Run `sudo apt-get install -y nginx` and rerun; skipping nginx.');
    return null;
  }
  console.log('nginx is not installed: apt-get install -y nginx');
  const env = childProcessEnv({ DEBIAN_FRONTEND: 'noninteractive' });
  const run = (argv: string[]) =>
    spawnSync(sudo ? 'sudo' : (argv[0] ?? ''), sudo ? ['-n', '-E', ...argv] : argv.slice(1), { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  if (!run(['apt-get', 'install', '-y', '-q', 'nginx']) && !(run(['apt-get', 'update', '-q']) && run(['apt-get', 'install', '-y', '-q', 'nginx']))) {
    console.log('apt-get could not install nginx. Install it (`apt-get install -y nginx`) and rerun; skipping nginx.');
    return null;
  }
  // The package may start the system's nginx on port 80; this benchmark runs its own.
  run(['sh', '-c', '(command -v systemctl >/dev/null && systemctl stop nginx) || service nginx stop || true']);
  return findNginx();
}

/** Polls until the server answers for the shard, and returns its ETag. */
async function shardEtag(baseUrl: string, child: ChildProcess): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${baseUrl}: exited with code ${child.exitCode}`);
    const response = await head(`${baseUrl}/${SHARD_PATH}`).catch(() => null);
    if (response?.statusCode === 200 && typeof response.headers.etag === 'string') return response.headers.etag;
    if (Date.now() > deadline) throw new Error(`${baseUrl} did not serve the shard within 60 s (last status ${response?.statusCode ?? 'none'})`);
    await delay(200);
  }
}

/** A HEAD with the site's Host (fetch would not send it). */
function head(url: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'HEAD', headers: { host: HOST, 'accept-encoding': 'gzip' } }, (response) => {
      response.resume();
      resolve(response);
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * autocannon in a process of its own: in this one it would share an event loop with the app's log
 * pipe and halve what it can drive (measured: ~90 MB/s of shard against ~580 MB/s on its own).
 */
async function measure(server: Server, benchCase: Case, duration: number): Promise<Measurement> {
  const headers = Object.entries({ host: HOST, ...benchCase.headers(server) }).flatMap(([name, value]) => ['-H', `${name}=${value}`]);
  const argv = [AUTOCANNON, '--json', '-c', String(CONNECTIONS), '-d', String(duration), ...headers, `${server.baseUrl}${benchCase.path}`];
  // Asynchronously: this event loop keeps draining the app's log pipe meanwhile.
  const { stdout } = await execFileAsync(process.execPath, argv, { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout) as AutocannonResult;
  const stats = result.statusCodeStats ?? {};
  const answered = Object.values(stats).reduce((sum, stat) => sum + stat.count, 0);
  const expected = stats[String(benchCase.status)]?.count ?? 0;
  return { rps: result.requests.average, p99: result.latency.p99, mbps: result.throughput.average / 1e6, wrong: answered - expected + result.errors + result.timeouts };
}

function report(cases: Case[], results: Map<string, Measurement>, withNginx: boolean): void {
  const get = (server: string, name: string) => results.get(`${server}/${name}`);
  console.log('');
  printTable([
    ['case', 'public req/s', 'p99 ms', 'MB/s', ...(withNginx ? ['nginx req/s', 'p99 ms', 'MB/s', 'public/nginx'] : [])],
    ...cases.map((benchCase) => {
      const ours = get('public', benchCase.name);
      const theirs = get('nginx', benchCase.name);
      const ratio = ours && theirs ? `${fmt((100 * ours.rps) / theirs.rps, 0)}%` : '-';
      return [benchCase.name, fmt(ours?.rps, 0), fmt(ours?.p99, 1), fmt(ours?.mbps, 1), ...(withNginx ? [fmt(theirs?.rps, 0), fmt(theirs?.p99, 1), fmt(theirs?.mbps, 1), ratio] : [])];
    }),
  ]);

  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const shard = get('public', 'shard 200');
  const shardNginx = get('nginx', 'shard 200');
  const notModified = get('public', 'shard 304');
  const p99s = cases.map((benchCase) => get('public', benchCase.name)?.p99 ?? Number.POSITIVE_INFINITY);
  console.log('\ntargets');
  if (shard && shardNginx) {
    console.log(`  shard req/s >= ${TARGETS.shardShareOfNginx * 100}% of nginx's: ${fmt((100 * shard.rps) / shardNginx.rps, 0)}%  ${verdict(shard.rps >= TARGETS.shardShareOfNginx * shardNginx.rps)}`);
  } else console.log('  shard req/s against nginx: not measured');
  if (notModified) console.log(`  304s >= ${TARGETS.notModifiedRps.toLocaleString('en')} req/s: ${fmt(notModified.rps, 0)}  ${verdict(notModified.rps >= TARGETS.notModifiedRps)}`);
  console.log(`  p99 < ${TARGETS.p99Ms} ms: worst ${fmt(Math.max(...p99s), 1)} ms  ${verdict(Math.max(...p99s) < TARGETS.p99Ms)}`);
  console.log('\nClient and servers share the machine (and anything else running on it): expect several percent of noise between runs; compare ratios within one run.');
}

function fmt(value: number | undefined, digits: number): string {
  return value === undefined || !Number.isFinite(value) ? '-' : value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
