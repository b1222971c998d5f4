// `npm start` as a newcomer runs it: no DATABASE_URL (so the embedded PostgreSQL path), free
// ports, and the test's Redis. The demo sitemap is fetched through the public server as a
// crawler would and every file validated. Killed outright, its apps stop by themselves and the
// next start takes over the database it left; Ctrl-C then stops everything with exit code 0 and
// leaves no PostgreSQL (and no app) behind. With SITE_VERIFICATION=on it starts all the same and
// says why there is no demo.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv } from '@sitemaps/config';
import { freePort, isProcessAlive as isAlive } from '@sitemaps/local-services';
import { rawRequest, testRedisUrl, uniqueQueuePrefix, waitUntil } from '@sitemaps/testing';
import { crawl, locsOf, validateSitemaps } from './support/crawler';

const ROOT = path.resolve(__dirname, '..');
const DEMO_HOST = 'demo.localhost';
const BANNER_TITLE = 'The sitemap platform is running.';
/** Embedded PostgreSQL's first start (initdb), migrations, three app boots and the demo build. */
const START_TIMEOUT_MS = 240_000;

describe('npm start', () => {
  let dataDir: string;
  let apiPort: number;
  let publicPort: number;
  let queuePrefix: string;
  let child: ChildProcess;
  let output = '';
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /** Resolves once the output contains `text`; rejects if npm start exits first. */
  function outputContaining(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!output.includes(text)) return;
        cleanup();
        resolve();
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        cleanup();
        reject(new Error(`npm start exited (${signal ?? code}) before printing "${text}":\n${output.slice(-4_000)}`));
      };
      const cleanup = () => {
        child.stdout?.off('data', check);
        child.off('exit', onExit);
      };
      child.stdout?.on('data', check);
      child.once('exit', onExit);
      check();
    });
  }

  function expectRunning(): void {
    expect(child.exitCode ?? child.signalCode, `npm start is not running:\n${output.slice(-4_000)}`).toBeNull();
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sitemaps-start-e2e-'));
    // Run as root, the embedded PostgreSQL runs as the `postgres` user, which must reach its data.
    await chmod(dataDir, 0o755);
    apiPort = await freePort();
    do publicPort = await freePort();
    while (publicPort === apiPort);
    queuePrefix = uniqueQueuePrefix('start-e2e');

    // `npm start` is `npm run build && start.ts`: the apps run from dist/.
    const build = spawnSync(process.execPath, ['scripts/build.js'], { cwd: ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    startNpm();
  });

  function startNpm(env: Record<string, string> = {}): void {
    output = '';
    child = spawn(process.execPath, ['-r', '@swc-node/register', 'scripts/start.ts'], {
      cwd: ROOT,
      env: childProcessEnv({
        DATABASE_URL: undefined,
        ADMIN_API_KEY: undefined,
        REDIS_URL: testRedisUrl(),
        // The demo site must not be announced to the real IndexNow from a test.
        INDEXNOW_ENDPOINTS: 'off',
        SITEMAPS_DATA_DIR: dataDir,
        API_PORT: String(apiPort),
        PUBLIC_PORT: String(publicPort),
        WORKER_HTTP_PORT: '0',
        QUEUE_PREFIX: queuePrefix,
        ...env,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  }

  const postmasterPid = async () =>
    Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);

  afterAll(async () => {
    // Only when a test failed before the SIGINT test stopped it: never leave a database running.
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const stopped = await Promise.race([
        exited.then(() => true),
        new Promise<false>((r) => setTimeout(r, 30_000, false)),
      ]);
      if (!stopped) child.kill('SIGKILL');
    }
    const pid = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').then(
      (text) => Number(text.split('\n')[0]),
      () => 0,
    );
    if (pid && isAlive(pid)) process.kill(pid, 'SIGQUIT');
    const redis = new Redis(testRedisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      for await (const keys of redis.scanStream({ match: `${queuePrefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
        if (keys.length) await redis.del(...keys);
      }
    } finally {
      redis.disconnect();
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'starts with embedded PostgreSQL, seeds the demo and prints the banner',
    async () => {
      await outputContaining(BANNER_TITLE);
      await outputContaining('Ctrl-C stops everything.');
      expect(output).toContain(`curl -H 'Host: ${DEMO_HOST}' http://127.0.0.1:${publicPort}/sitemap.xml`);
      expect(output).toContain(`curl -H 'Host: ${DEMO_HOST}' http://127.0.0.1:${publicPort}/robots.txt`);
      expect(output).toMatch(/embedded PostgreSQL/);
      const adminKey = (await readFile(path.join(dataDir, 'admin-api-key'), 'utf8')).trim();
      expect(output).toContain(adminKey);
      const tenantKey = (await readFile(path.join(dataDir, 'demo-tenant-key'), 'utf8')).trim();
      expect(output).toContain(tenantKey);
    },
    START_TIMEOUT_MS,
  );

  it('serves the demo sitemap through the public server, every file valid', async () => {
    expectRunning();
    const publicUrl = `http://127.0.0.1:${publicPort}`;
    const { index, shards } = await waitUntil(
      'the demo sitemap to be served',
      async (seen) => {
        const crawled = await crawl(publicUrl, DEMO_HOST).catch((error: unknown) => seen(String(error)) && undefined);
        const statuses = crawled
          ? seen([crawled.index, ...crawled.shards].map((file) => `${file.path} ${file.status}`))
          : [];
        return crawled && statuses.every((status) => status.endsWith(' 200')) ? crawled : undefined;
      },
      { intervalMs: 200 },
    );
    expect(index.xml).toContain('<sitemapindex');
    const validation = await validateSitemaps([index, ...shards].map((file) => ({ name: file.path, data: file.body })));
    expect(validation.status, validation.output).toBe(0);

    const urlLocs = shards.flatMap((file) => locsOf(file.xml));
    expect(urlLocs).toHaveLength(300);
    expect(urlLocs).toContain(`http://${DEMO_HOST}/de/products/42`);
    const entry = shards.flatMap(
      (file) => file.xml.match(/<url>(?:(?!<\/url>)[\s\S])*\/de\/products\/42<\/loc>[\s\S]*?<\/url>/) ?? [],
    );
    expect(entry).toHaveLength(1);
    for (const href of ['/en/products/42', '/de/products/42', '/fr/products/42', '/products/42']) {
      expect(entry[0]).toContain(`href="http://${DEMO_HOST}${href}"`);
    }
    expect(entry[0]).toContain('hreflang="x-default"');

    const robots = await rawRequest(publicUrl, '/robots.txt', { host: DEMO_HOST });
    expect(robots.status).toBe(200);
    expect(robots.body.toString('utf8')).toMatch(/^sitemap:\s*http:\/\/demo\.localhost\/sitemap\.xml\s*$/im);
  });

  it(
    'killed outright, leaves no app running, and the next start takes over the database it left',
    async () => {
      expectRunning();
      const orphan = await postmasterPid();
      child.kill('SIGKILL');
      await exited;
      // The apps notice their parent is gone and stop: their ports are free again.
      await waitUntil(
        'the apps to stop after npm start was killed',
        async (seen) =>
          seen([await freePort(apiPort), await freePort(publicPort)]).join() === `${apiPort},${publicPort}`,
        { timeoutMs: 30_000 },
      );
      expect(isAlive(orphan)).toBe(true);

      // Production's verification this time: the demo's hostname cannot be proven, and that is said,
      // not a failed start.
      startNpm({ SITE_VERIFICATION: 'on' });
      await outputContaining(BANNER_TITLE);
      await outputContaining('Ctrl-C stops everything.');
      expect(output).toContain('demo site            not available: SITE_VERIFICATION=on');
      expect(output).toContain(`stopping the PostgreSQL (pid ${orphan}) that an earlier npm start left running`);
      expect(isAlive(orphan)).toBe(false);
      expect(isAlive(await postmasterPid())).toBe(true);
    },
    START_TIMEOUT_MS,
  );

  it('stops everything on Ctrl-C and exits 0', async () => {
    expectRunning();
    const postmasterPid = Number(
      (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    expect(isAlive(postmasterPid)).toBe(true);

    child.kill('SIGINT');
    const { code, signal } = await exited;
    expect({ code, signal }, output.slice(-4_000)).toEqual({ code: 0, signal: null });

    expect(isAlive(postmasterPid)).toBe(false);
    await expect(readFile(path.join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow(/ENOENT/);
    // The apps are gone: their ports are free again.
    expect(await freePort(apiPort)).toBe(apiPort);
    expect(await freePort(publicPort)).toBe(publicPort);
  }, 60_000);
});
