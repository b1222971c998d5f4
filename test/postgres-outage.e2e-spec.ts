// Postgres stopped and started again under load, on a server the test makes (startPostgresReplicaPair,
// on spare ports; the machine's own Postgres is never touched). While the database is down, every
// request the API cannot do answers 503 with Retry-After and the code DATABASE_UNAVAILABLE, not
// 500: a client or balancer knows to retry it. Once Postgres is back the API takes writes again by
// itself (its pools reconnect), and every write it acknowledged, before or after, is stored.
// The public server (a process of its own) keeps serving what it last read of a site through the
// outage (stale-if-error), and counts every crawler fetch of it into Postgres once it is back.
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentSiteVerification, parseConfig } from '@sitemaps/config';
import {
  startPostgresReplicaPair,
  startTcpProxy,
  testRedisUrl,
  uniqueQueuePrefix,
  waitUntil,
  type PostgresReplicaPair,
  type TcpProxy,
} from '@sitemaps/testing';
import { rawRequest, type RawResponse } from '@sitemaps/testing/src/raw-http';
import { createApiApp } from '../apps/api/src/api.app';
import { apiClient, type ApiResponse } from './support/api-client';
import { spawnPublic, type PublicProcess } from './support/public-process';
import { spawnWorker, type WorkerProcess } from './support/worker-process';

const ADMIN_KEY = 'outage-admin-key-0123456789';
const HOST = 'outage.example.com';

describe('Postgres restarted under load', () => {
  let pair: PostgresReplicaPair;
  let app: NestFastifyApplication;
  let db: Pool;
  let api: ReturnType<typeof apiClient>;
  let siteId: string;

  beforeAll(async () => {
    pair = await startPostgresReplicaPair();
    const config = parseConfig({
      DATABASE_URL: pair.primaryUrl,
      REDIS_URL: testRedisUrl(),
      ADMIN_API_KEY: ADMIN_KEY,
      QUEUE_PREFIX: uniqueQueuePrefix('outage'),
      LOG_LEVEL: 'error',
      INDEXNOW_ENDPOINTS: 'off',
      SITE_VERIFICATION: developmentSiteVerification(),
    });
    app = await createApiApp(config);
    await app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const tenant = await apiClient(baseUrl, ADMIN_KEY).post('/v1/tenants', { name: 'Outage' });
    expect(tenant.status).toBe(201);
    api = apiClient(baseUrl, tenant.body.apiKey);
    const site = await api.post('/v1/sites', { hostname: HOST });
    expect(site.status).toBe(201);
    siteId = site.body.id;
    db = new Pool({ connectionString: pair.primaryUrl, max: 2 });
    db.on('error', () => undefined);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await db?.end();
    await pair?.stop();
  });

  it('answers 503 with Retry-After while the database is down, then takes writes again; nothing acknowledged is lost', async () => {
    const acknowledged: string[] = [];
    type Phase = 'up' | 'down' | 'back';
    // A request counts in a phase when it began and ended in it; one that spans a change is 'edge'.
    const seen: { phase: Phase | 'edge'; what: string; response: ApiResponse }[] = [];
    let phase: Phase = 'up';
    let stop = false;
    let round = 0;
    // Two clients at once, writing and reading, all the time.
    const writer = async () => {
      while (!stop) {
        const locs = Array.from({ length: 20 }, (_, i) => `https://${HOST}/r${round}/${i}`);
        round += 1;
        const at = phase;
        const response = await api.put(
          `/v1/sites/${siteId}/urls`,
          locs.map((loc) => ({ loc })),
        );
        seen.push({ phase: at === phase ? at : 'edge', what: 'PUT urls', response });
        if (response.status === 200) acknowledged.push(...locs);
      }
    };
    const reader = async () => {
      while (!stop) {
        const at = phase;
        const response = await api.get(`/v1/sites/${siteId}`);
        seen.push({ phase: at === phase ? at : 'edge', what: 'GET site', response });
      }
    };
    const load = Promise.all([writer(), reader()]);
    const count = (which: Phase) => seen.filter((entry) => entry.phase === which).length;
    try {
      await waitUntil('writes to be acknowledged before the outage', () => acknowledged.length >= 100 || undefined);
      await pair.stopPrimary();
      phase = 'down';
      await waitUntil('requests to meet the database down', () => count('down') >= 20 || undefined);
      await pair.startPrimary();
      phase = 'back';
      const before = acknowledged.length;
      await waitUntil(
        'the API to take writes again by itself',
        () => acknowledged.length >= before + 100 || undefined,
        {
          timeoutMs: 60_000,
        },
      );
    } finally {
      stop = true;
      await load;
    }

    const down = seen.filter((entry) => entry.phase === 'down');
    // While it was down: nothing but 503 DATABASE_UNAVAILABLE with Retry-After, for writes and reads.
    const refused = down.filter((entry) => entry.response.status !== 200);
    expect(refused.length).toBeGreaterThanOrEqual(20);
    expect(
      refused.map((entry) => ({
        what: entry.what,
        status: entry.response.status,
        code: entry.response.body?.error?.code,
        retryAfter: entry.response.headers.get('retry-after'),
      })),
    ).toEqual(
      refused.map((entry) => ({ what: entry.what, status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: '5' })),
    );
    expect(new Set(refused.map((entry) => entry.what))).toEqual(new Set(['PUT urls', 'GET site']));
    // Never a 500, in any phase.
    expect(seen.filter((entry) => entry.response.status >= 500 && entry.response.status !== 503)).toEqual([]);
    // Nothing acknowledged is lost.
    const { rows } = await db.query<{ loc: string }>('SELECT loc FROM urls WHERE site_id = $1', [siteId]);
    const stored = new Set(rows.map((row) => row.loc));
    expect(acknowledged.filter((loc) => !stored.has(loc))).toEqual([]);
  }, 240_000);
});

const READ = 'read.example.com';
const UNREAD = 'unread.example.com';

// What a crawler sees of the public server while Postgres is down: the sites it had read are
// served from their last manifest past its age (1 s here: BLOB_GRACE_MS 2 s), with the same bytes
// and validators; what it never read (a site, or the bytes of a shard kept in Postgres) answers
// 503 with Retry-After. Once Postgres is back, a new publish is served, and no fetch went uncounted.
describe('the public server through a Postgres outage', () => {
  let pair: PostgresReplicaPair;
  let app: NestFastifyApplication;
  let worker: WorkerProcess;
  let server: PublicProcess;
  let api: ReturnType<typeof apiClient>;
  const siteIds: Record<string, string> = {};
  /** Requests of READ's sitemap files sent to the public server: each is a fetch it must count. */
  let fetchesOfRead = 0;

  const get = (host: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> => {
    if (host === READ) fetchesOfRead += 1;
    return rawRequest(server.url, path, { host, headers: { 'user-agent': 'outage-check/1.0', ...headers } });
  };
  const publish = async (host: string, locs: string[]) => {
    const siteId = siteIds[host] as string;
    const put = await api.put(
      `/v1/sites/${siteId}/urls`,
      locs.map((loc) => ({ loc: `https://${host}${loc}`, section: loc.split('/')[1] })),
    );
    expect(put.status).toBe(200);
    const build = await api.post(`/v1/sites/${siteId}/builds`, {});
    expect(await api.waitForBuild(siteId, build.body.buildId)).toMatchObject({ status: 'published' });
  };

  beforeAll(async () => {
    pair = await startPostgresReplicaPair();
    const env = {
      DATABASE_URL: pair.primaryUrl,
      REDIS_URL: testRedisUrl(),
      ADMIN_API_KEY: ADMIN_KEY,
      QUEUE_PREFIX: uniqueQueuePrefix('stale'),
      LOG_LEVEL: 'error',
      INDEXNOW_ENDPOINTS: 'off',
      SITE_VERIFICATION: developmentSiteVerification(),
      BUILD_QUIET_MS: '100',
      // A cached manifest's age is half of this (at least 1 s): the outage outlasts it.
      BLOB_GRACE_MS: '2000',
      CRAWL_FLUSH_MS: '200',
      PUBLIC_WORKERS: '1',
      PUBLIC_METRICS_PORT: '0',
    };
    app = await createApiApp(parseConfig(env));
    await app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const tenant = await apiClient(baseUrl, ADMIN_KEY).post('/v1/tenants', { name: 'Stale' });
    api = apiClient(baseUrl, tenant.body.apiKey);
    for (const hostname of [READ, UNREAD]) siteIds[hostname] = (await api.post('/v1/sites', { hostname })).body.id;
    worker = await spawnWorker(env);
    server = await spawnPublic(env);
    await publish(READ, ['/blog/1', '/products/1']);
    await publish(UNREAD, ['/blog/1']);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await worker?.stop();
    await app?.close();
    await pair?.stop();
  });

  it('serves the sites it read from their last manifest, 503 for the rest; a publish after it is served', async () => {
    const before = {
      index: await get(READ, '/sitemap.xml'),
      robots: await get(READ, '/robots.txt'),
      shard: await get(READ, '/sitemap-blog-1.xml.gz'),
    };
    expect([before.index.status, before.robots.status, before.shard.status]).toEqual([200, 200, 200]);

    await pair.stopPrimary();
    try {
      // Until the manifest's age has passed and a reload met Postgres down (the log says so), and
      // after: the same bytes and tag, never a 503 or a 404.
      const during: RawResponse[] = [];
      await waitUntil('the public server to serve a manifest past its age', async () => {
        const response = await get(READ, '/sitemap.xml');
        during.push(response);
        return (
          response.status !== 200 ||
          server.lines.some((line) => line.msg.startsWith('Postgres unreachable: serving manifests'))
        );
      });
      for (const response of during) {
        expect({ status: response.status, etag: response.headers.etag }).toEqual({
          status: 200,
          etag: before.index.headers.etag,
        });
        expect(response.body.equals(before.index.body)).toBe(true);
      }
      for (const [path, was] of [
        ['/sitemap.xml', before.index],
        ['/robots.txt', before.robots],
        ['/sitemap-blog-1.xml.gz', before.shard],
      ] as const) {
        const again = await get(READ, path);
        expect({ path, status: again.status, etag: again.headers.etag }).toEqual({
          path,
          status: 200,
          etag: was.headers.etag,
        });
        expect(again.body.equals(was.body)).toBe(true);
        const notModified = await get(READ, path, { 'if-none-match': String(was.headers.etag) });
        expect({ path, status: notModified.status }).toEqual({ path, status: 304 });
      }
      // Not in memory: a shard whose bytes are in Postgres (the default store), and a site never read.
      for (const [host, path] of [
        [READ, '/sitemap-products-1.xml.gz'],
        [UNREAD, '/sitemap.xml'],
        [UNREAD, '/robots.txt'],
      ] as const) {
        const refused = await get(host, path);
        expect({ host, path, status: refused.status, retryAfter: refused.headers['retry-after'] }).toEqual({
          host,
          path,
          status: 503,
          retryAfter: '5',
        });
      }
      const started = await server.waitForLine((line) => typeof line.metricsPort === 'number');
      const metrics = await (await fetch(`http://127.0.0.1:${String(started.metricsPort)}/metrics`)).text();
      expect(Number(/^sitemaps_public_stale_answers_total\{[^}]*\} (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(
        6,
      );
      expect(metrics).toMatch(/^sitemaps_public_stale_sites\{[^}]*\} 1$/m);
    } finally {
      await pair.startPrimary();
    }

    // Back: a new publish is served, and so is the site never read.
    await waitUntil('the API to read again', async () => (await api.get(`/v1/sites/${siteIds[READ]}`)).status === 200);
    await publish(READ, ['/blog/1', '/blog/2', '/products/1']);
    const after = await waitUntil('the new publish to be served', async () => {
      const index = await get(READ, '/sitemap.xml');
      return index.status === 200 && index.headers.etag !== before.index.headers.etag && index;
    });
    expect(after.body.equals(before.index.body)).toBe(false);
    expect((await get(READ, '/sitemap-blog-1.xml.gz')).status).toBe(200);
    expect((await get(UNREAD, '/sitemap.xml')).status).toBe(200);
    await server.waitForLine((line) => line.msg.startsWith('Postgres reachable again'));

    // Every fetch of READ's files, before, during and after the outage, is counted once the
    // public server has written its last counts (at shutdown).
    expect(await server.stop()).toBe(0);
    const db = new Pool({ connectionString: pair.primaryUrl, max: 1 });
    try {
      const { rows } = await db.query<{ fetches: number }>(
        'SELECT coalesce(sum(fetches), 0)::int AS fetches FROM crawl_fetches WHERE site_id = $1',
        [siteIds[READ]],
      );
      expect(rows[0]?.fetches).toBe(fetchesOfRead);
    } finally {
      await db.end();
    }
  }, 240_000);
});

// An unplanned failover: the primary dies (immediate stop) while the API writes through a TCP proxy
// (the stand-in for the virtual IP or DNS name that a failover moves), the replica is promoted and
// the proxy re-pointed at it. The replica is synchronous, so it holds every commit the primary
// acknowledged: nothing the API acknowledged is lost, and the API writes to the new primary by itself.
describe('Postgres primary crashed and its replica promoted under load', () => {
  let pair: PostgresReplicaPair;
  let proxy: TcpProxy;
  let app: NestFastifyApplication;
  let api: ReturnType<typeof apiClient>;
  let siteId: string;

  beforeAll(async () => {
    pair = await startPostgresReplicaPair({ synchronous: true });
    proxy = await startTcpProxy(pair.primaryPort());
    const config = parseConfig({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/sitemaps`,
      REDIS_URL: testRedisUrl(),
      ADMIN_API_KEY: ADMIN_KEY,
      QUEUE_PREFIX: uniqueQueuePrefix('failover'),
      LOG_LEVEL: 'error',
      INDEXNOW_ENDPOINTS: 'off',
      SITE_VERIFICATION: developmentSiteVerification(),
    });
    app = await createApiApp(config);
    await app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const tenant = await apiClient(baseUrl, ADMIN_KEY).post('/v1/tenants', { name: 'Failover' });
    expect(tenant.status).toBe(201);
    api = apiClient(baseUrl, tenant.body.apiKey);
    const site = await api.post('/v1/sites', { hostname: HOST });
    expect(site.status).toBe(201);
    siteId = site.body.id;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await proxy?.stop();
    await pair?.stop();
  });

  it('reconnects to the promoted replica by itself and loses nothing acknowledged', async () => {
    const acknowledged: string[] = [];
    const statuses: number[] = [];
    let stop = false;
    let round = 0;
    const writer = async () => {
      while (!stop) {
        const locs = Array.from({ length: 20 }, (_, i) => `https://${HOST}/f${round}/${i}`);
        round += 1;
        const response = await api.put(
          `/v1/sites/${siteId}/urls`,
          locs.map((loc) => ({ loc })),
        );
        statuses.push(response.status);
        if (response.status === 200) acknowledged.push(...locs);
      }
    };
    const load = Promise.all([writer(), writer()]);
    try {
      await waitUntil('writes to be acknowledged before the crash', () => acknowledged.length >= 200 || undefined);
      await pair.crashPrimaryAndPromote();
      proxy.retarget(pair.primaryPort());
      const before = acknowledged.length;
      await waitUntil(
        'the API to write to the promoted replica',
        () => acknowledged.length >= before + 200 || undefined,
        {
          timeoutMs: 60_000,
        },
      );
    } finally {
      stop = true;
      await load;
    }
    // Refused writes (the crash, the switch) are 503s to retry, never 500s.
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    const db = new Pool({ connectionString: `postgres://postgres@127.0.0.1:${pair.primaryPort()}/sitemaps`, max: 1 });
    try {
      const { rows } = await db.query<{ loc: string }>('SELECT loc FROM urls WHERE site_id = $1', [siteId]);
      const stored = new Set(rows.map((row) => row.loc));
      expect(acknowledged.filter((loc) => !stored.has(loc))).toEqual([]);
    } finally {
      await db.end();
    }
  }, 240_000);
});
