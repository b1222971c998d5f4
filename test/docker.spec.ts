// Dockerfile and docker-compose.yml, checked without a Docker engine: compose against the Compose
// Specification's JSON schema (as shipped by the `dclint` package, schemas/compose.schema.json),
// and both against what the platform needs in production: probes, grace periods, node flags,
// a production-only install as a non-root user, and a Postgres connection budget that fits.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { APP_NODE_FLAGS, KNOWN_QUEUES, parseConfig } from '@sitemaps/config';

const ROOT = path.resolve(__dirname, '..');
const composeText = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
/** Node lines with long-term support until at least 2027 (20 ended in April 2026). */
const SUPPORTED_NODE_MAJORS = ['22', '24', '26'];
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };

interface Service {
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[]; interval?: string; timeout?: string };
  stop_grace_period?: string;
  depends_on?: Record<string, { condition: string }>;
}
interface Compose {
  services: Record<string, Service>;
}

/** `${NAME:-default}` as compose interpolates it with NAME unset. */
const interpolate = (value: string) => value.replace(/\$\{\w+:-([^}]*)\}/g, '$1');
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(entry.name) ? [full] : [];
  });
}
const seconds = (duration: string | undefined) => Number(/^(\d+)s$/.exec(duration ?? '')?.[1] ?? NaN);

describe('docker-compose.yml', () => {
  const compose = parse(composeText, { merge: true }) as Compose;
  const apps = { api: 3000, worker: 9464, public: 8080 } as const;

  it('is valid against the Compose Specification schema', () => {
    const schemaFile = path.join(path.dirname(require.resolve('dclint/package.json')), 'schemas/compose.schema.json');
    const { $schema, ...schema } = JSON.parse(readFileSync(schemaFile, 'utf8')) as { $schema: string; title: string };
    expect(schema.title).toBe('Compose Specification');
    // Draft-07, which Ajv knows under its http:// name.
    expect($schema).toMatch(/json-schema\.org\/draft-07\/schema/);
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    // The merge keys (`<<: *app`) resolved, as compose resolves them.
    const valid = validate(compose);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
    // And the schema does refuse a broken file.
    expect(validate({ services: { api: { healthcheck: { interval: 10 }, stop_grace_period: [] } } })).toBe(false);
  });

  it("gives every long-running service a health check; the apps' probe /health/ready on their own port", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === 'migrate') continue;
      expect(service.healthcheck, name).toBeDefined();
    }
    for (const [name, port] of Object.entries(apps)) {
      const test = compose.services[name]?.healthcheck?.test.join(' ') ?? '';
      expect(test, name).toContain(`http://127.0.0.1:${port}/health/ready`);
      // Any answer but a 2xx fails the check.
      expect(test, name).toContain('r.ok ? 0 : 1');
    }
    expect(compose.services.worker?.environment?.WORKER_HTTP_PORT).toBe(String(apps.worker));
  });

  it('starts the apps after the migration, with the node flags of app-processes.ts', () => {
    for (const name of Object.keys(apps) as (keyof typeof apps)[]) {
      const service = compose.services[name] as Service;
      expect(service.depends_on?.migrate?.condition, name).toBe('service_completed_successfully');
      expect(service.command, name).toEqual(['node', ...APP_NODE_FLAGS[name], `dist/apps/${name}/src/main.js`]);
    }
  });

  it('runs a worker for every queue: one nobody serves is work that never happens', () => {
    // Without `verification` every site stays pending; without `webhook` no event is delivered.
    const served = new Set(
      Object.values(compose.services).flatMap((service) =>
        service.command?.includes('dist/apps/worker/src/main.js')
          ? parseConfig({
              DATABASE_URL: 'postgres://x@localhost/x',
              WORKER_QUEUES: interpolate(service.environment?.WORKER_QUEUES ?? ''),
            }).worker.queues
          : [],
      ),
    );
    expect([...served].sort()).toEqual([...KNOWN_QUEUES].sort());
  });

  it('lets a worker finish a shard render on stop, and sets PUBLIC_WORKERS', () => {
    const lockSeconds = parseConfig({ DATABASE_URL: 'postgres://x@localhost/x' }).worker.lockMs / 1000;
    // Longer than a render takes, and than the lock that hands a cut-off job to another worker.
    expect(seconds(compose.services.worker?.stop_grace_period)).toBeGreaterThan(lockSeconds);
    for (const name of Object.keys(apps))
      expect(seconds(compose.services[name]?.stop_grace_period), name).toBeGreaterThan(0);
    expect(Number(interpolate(compose.services.public?.environment?.PUBLIC_WORKERS ?? ''))).toBeGreaterThanOrEqual(1);
  });

  it("keeps the apps' Postgres connections within max_connections (docs/operations.md's formula)", () => {
    const environment = Object.entries(compose.services.api?.environment ?? {}).map(([key, value]) => [
      key,
      interpolate(value),
    ]);
    const config = parseConfig(Object.fromEntries(environment));
    // Pools as the app modules open them: Prisma's 10 and pg's 10 in api and worker, plus the
    // api's upload pool; Prisma's 10, the blob pool's 4 and the crawl counts' 2 (always on the
    // primary) per public process; the migrator's 2
    // plus its advisory-lock session.
    const perApi = 10 + 10 + config.import.dbConnections;
    const perWorker = 10 + 10;
    const perPublicProcess = 10 + 4 + 2;
    const migrate = 3;
    const publicWorkers = Number(interpolate(compose.services.public?.environment?.PUBLIC_WORKERS ?? ''));
    const used = perApi + perWorker + perPublicProcess * publicWorkers + migrate;
    const command = (compose.services.postgres?.command ?? []).map(interpolate).join(' ');
    const maxConnections = Number(/max_connections=(\d+)/.exec(command)?.[1]);
    const reserved = 3; // superuser_reserved_connections
    expect(used).toBe(81);
    // The pools the sum counts are all the apps open: a new one must be added to the budget.
    const opened = (dir: string) =>
      sourceFiles(path.join(ROOT, dir, 'src'))
        .map((file) => readFileSync(file, 'utf8').match(/\bcreate(PgPool|PrismaClient)\(/g)?.length ?? 0)
        .reduce((a, b) => a + b, 0);
    // CoreModule (libs/core) opens the api's and the worker's shared Prisma client and pg pool.
    const pools = (app: string) => opened(`apps/${app}`) + (app === 'public' ? 0 : opened('libs/core'));
    // The api's other two (Prisma and pg, read-routing.providers.ts) open only with DATABASE_READ_URL, on the
    // replica: they count against its max_connections, not this primary's (docs/scaling.md).
    expect({ api: pools('api'), worker: pools('worker'), public: pools('public') }).toEqual({
      api: 5,
      worker: 2,
      public: 3,
    });
    expect(used).toBeLessThanOrEqual(maxConnections - reserved);
    // Room for two more workers (`--scale worker=3`) without touching max_connections.
    expect(used + 2 * perWorker).toBeLessThanOrEqual(maxConnections - reserved);
  });
});

describe('Dockerfile', () => {
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1) ?? '';

  it('builds in one stage and runs from another with production packages only, as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^RUN .*npm ci --ignore-scripts$/m);
    expect(runtime).toMatch(/^RUN .*npm ci --omit=dev --omit=optional --ignore-scripts$/m);
    expect(runtime).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/^COPY \. \./m);
  });

  it('runs on a supported Node LTS', () => {
    const version = /^ARG NODE_VERSION=(\d+)$/m.exec(dockerfile)?.[1];
    expect(SUPPORTED_NODE_MAJORS).toContain(version);
    expect(dockerfile).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim AS base$/m);
    // package.json says the same lines (22 from 22.13, which some dependencies need), and .ci/run
    // runs the tests on the image's line, read from the same ARG.
    expect(manifest.engines.node).toBe('^22.13.0 || >=24.0.0');
    expect(readFileSync(path.join(ROOT, '.ci/run'), 'utf8')).toContain("sed -n 's/^ARG NODE_VERSION=");
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain(`Node.js ${version} (also 22 ≥ 22.13, or 26`);
  });

  it('installs from the package manifests alone, before any source, so installs are cached', () => {
    const manifests = stages.find((stage) => stage.startsWith('base AS manifests')) ?? '';
    expect(manifests).toMatch(/find \. -name package\.json .*cp --parents/);
    expect(manifests).toMatch(/cp package-lock\.json/);
    for (const stage of [stages.find((s) => s.startsWith('base AS build')) ?? '', runtime]) {
      const copied = stage.indexOf('COPY --from=manifests /app ./');
      const install = stage.search(/^RUN .*npm ci/m);
      expect(copied).toBeGreaterThan(-1);
      expect(install).toBeGreaterThan(copied);
      const source = stage.indexOf('COPY . .');
      if (source !== -1) expect(install).toBeLessThan(source);
    }
  });

  it('starts the api with the node flags of app-processes.ts', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(runtime)?.[1] ?? '[]';
    expect(JSON.parse(cmd)).toEqual(['node', ...APP_NODE_FLAGS.api, 'dist/apps/api/src/main.js']);
  });
});
