// Redis stopped under load, a redis-server of the test's own (the machine's shared one is never
// touched). A write stores its URLs in Postgres, then queues a build in Redis: with Redis away the
// second step fails, and the API answers 503 with Retry-After and the code REDIS_UNAVAILABLE, not
// 500 (the fault soak saw a PUT answered 500 while a Redis Cluster master failed over). Once Redis
// is back the API takes writes again by itself, every acknowledged URL is stored, and it shuts down.
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentSiteVerification, parseConfig } from '@sitemaps/config';
import { freePort, startRedisServer, type RedisServer } from '@sitemaps/local-services';
import { createTestDatabase, uniqueQueuePrefix, waitUntil, type TestDatabase } from '@sitemaps/testing';
import { Pool } from 'pg';
import { createApiApp } from '../apps/api/src/api.app';
import { apiClient, type ApiResponse } from './support/api-client';

const ADMIN_KEY = 'redis-outage-admin-key-0123456789';
const HOST = 'redis-outage.example.com';

describe('Redis stopped under load', () => {
  let database: TestDatabase;
  let dir: string;
  let port: number;
  let redis: RedisServer | undefined;
  let app: NestFastifyApplication | undefined;
  let api: ReturnType<typeof apiClient>;
  let siteId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(path.join(tmpdir(), 'redis-outage-'));
    port = await freePort();
    redis = await startRedisServer({ port, dir });
    const config = parseConfig({
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      ADMIN_API_KEY: ADMIN_KEY,
      QUEUE_PREFIX: uniqueQueuePrefix('redis-outage'),
      LOG_LEVEL: 'error',
      INDEXNOW_ENDPOINTS: 'off',
      SITE_VERIFICATION: developmentSiteVerification(),
    });
    app = await createApiApp(config);
    await app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const tenant = await apiClient(baseUrl, ADMIN_KEY).post('/v1/tenants', { name: 'Redis outage' });
    expect(tenant.status).toBe(201);
    api = apiClient(baseUrl, tenant.body.apiKey);
    const site = await api.post('/v1/sites', { hostname: HOST });
    expect(site.status).toBe(201);
    siteId = site.body.id;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers writes 503 with Retry-After while Redis is down, takes them again after, and closes', async () => {
    const acknowledged: string[] = [];
    type Phase = 'up' | 'down' | 'back';
    const seen: { phase: Phase | 'edge'; response: ApiResponse }[] = [];
    let phase: Phase = 'up';
    let stop = false;
    let round = 0;
    const writer = async () => {
      while (!stop) {
        const locs = Array.from({ length: 20 }, (_, i) => `https://${HOST}/r${round}/${i}`);
        round += 1;
        const at = phase;
        const response = await api.put(
          `/v1/sites/${siteId}/urls`,
          locs.map((loc) => ({ loc })),
        );
        seen.push({ phase: at === phase ? at : 'edge', response });
        if (response.status === 200) acknowledged.push(...locs);
      }
    };
    const load = Promise.all([writer(), writer()]);
    const count = (which: Phase) => seen.filter((entry) => entry.phase === which).length;
    try {
      await waitUntil('writes to be acknowledged before the outage', () => acknowledged.length >= 100 || undefined);
      await redis!.kill();
      redis = undefined;
      phase = 'down';
      await waitUntil('writes to meet Redis down', () => count('down') >= 6 || undefined, { timeoutMs: 60_000 });
      redis = await startRedisServer({ port, dir });
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

    const refused = seen.filter((entry) => entry.phase === 'down' && entry.response.status !== 200);
    expect(refused.length).toBeGreaterThanOrEqual(6);
    expect(
      refused.map(({ response }) => ({
        status: response.status,
        code: response.body?.error?.code,
        retryAfter: response.headers.get('retry-after'),
      })),
    ).toEqual(refused.map(() => ({ status: 503, code: 'REDIS_UNAVAILABLE', retryAfter: '5' })));
    // Never a 500, in any phase.
    expect(seen.filter(({ response }) => response.status >= 500 && response.status !== 503)).toEqual([]);
    const db = new Pool({ connectionString: database.url, max: 1 });
    try {
      const { rows } = await db.query<{ loc: string }>('SELECT loc FROM urls WHERE site_id = $1', [siteId]);
      const stored = new Set(rows.map((row) => row.loc));
      expect(acknowledged.filter((loc) => !stored.has(loc))).toEqual([]);
    } finally {
      await db.end();
    }
  }, 240_000);
});
