// Postgres stopped and started again under load, on a server the test makes (startPostgresReplicaPair,
// on spare ports; the machine's own Postgres is never touched). While the database is down, every
// request the API cannot do answers 503 with Retry-After and the code DATABASE_UNAVAILABLE, not
// 500: a client or balancer knows to retry it. Once Postgres is back the API takes writes again by
// itself (its pools reconnect), and every write it acknowledged, before or after, is stored.
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
import { createApiApp } from '../apps/api/src/api.app';
import { apiClient, type ApiResponse } from './support/api-client';

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
