// The API on a primary and a streaming replica of it (DATABASE_READ_URL) that the test makes
// (initdb + pg_basebackup on spare ports). With replay paused, a tenant that writes reads its
// writes back at once (from the primary), while another tenant's reads come from the replica;
// once the replica has replayed a tenant's writes, its reads go back to the replica. Which server
// answered shows in the data: the test changes rows on the primary behind the API's back, so the
// primary and the paused replica hold different values. Every write route answers while the
// replica is paused and read-only: none is sent there.
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentSiteVerification, parseConfig } from '@sitemaps/config';
import {
  startPostgresReplicaPair,
  testRedisUrl,
  uniqueQueuePrefix,
  waitUntil,
  type PostgresReplicaPair,
} from '@sitemaps/testing';
import { createApiApp } from '../apps/api/src/api.app';
import { apiClient } from './support/api-client';

const ADMIN_KEY = 'replica-admin-key-0123456789';

describe('API on a read replica', () => {
  let pair: PostgresReplicaPair;
  let app: NestFastifyApplication;
  let primary: Pool;
  let replica: Pool;
  let a: ReturnType<typeof apiClient>;
  let b: ReturnType<typeof apiClient>;
  let graphqlA: (query: string, variables?: Record<string, unknown>) => Promise<any>;
  let siteA: string;
  let siteB: string;
  let doomedA: string;

  beforeAll(async () => {
    pair = await startPostgresReplicaPair();
    const config = parseConfig({
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URL: pair.replicaUrl,
      REDIS_URL: testRedisUrl(),
      ADMIN_API_KEY: ADMIN_KEY,
      QUEUE_PREFIX: uniqueQueuePrefix('replica'),
      LOG_LEVEL: 'warn',
      INDEXNOW_ENDPOINTS: 'off',
      SITE_VERIFICATION: developmentSiteVerification(),
    });
    app = await createApiApp(config);
    await app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    primary = new Pool({ connectionString: pair.primaryUrl, max: 2 });
    replica = new Pool({ connectionString: pair.replicaUrl, max: 2 });

    const admin = apiClient(baseUrl, ADMIN_KEY);
    const keyOf = async (name: string) => {
      const tenant = await admin.post('/v1/tenants', { name });
      expect(tenant.status).toBe(201);
      return tenant.body.apiKey as string;
    };
    const [keyA, keyB] = [await keyOf('A'), await keyOf('B')];
    a = apiClient(baseUrl, keyA);
    b = apiClient(baseUrl, keyB);
    graphqlA = async (query, variables = {}) => {
      const response = await a.call('POST', '/graphql', { query, variables });
      expect(response.body.errors).toBeUndefined();
      return response.body.data;
    };
    const site = async (client: typeof a, hostname: string) => {
      const created = await client.post('/v1/sites', { hostname });
      expect(created.status).toBe(201);
      return created.body.id as string;
    };
    siteA = await site(a, 'a.replica.example.com');
    doomedA = await site(a, 'doomed.replica.example.com');
    siteB = await site(b, 'b.replica.example.com');
    await pair.caughtUp();
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await primary?.end();
    await replica?.end();
    await pair?.stop();
  });

  const cacheMaxAge = async (client: typeof a, siteId: string) => {
    const response = await client.get(`/v1/sites/${siteId}`);
    expect(response.status).toBe(200);
    return response.body.cacheMaxAge as number;
  };
  const countOn = async (pool: Pool, table: 'sites' | 'builds', id: string) =>
    (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE id = $1`, [id])).rows[0]?.n;

  it('serves a tenant its own writes while the replica lags, and another tenant from the replica', async () => {
    await pair.pauseReplay();
    // B's site changes on the primary only, behind the API: no write of B's is recorded.
    await primary.query('UPDATE sites SET cache_max_age = 777 WHERE id = $1', [siteB]);

    // A writes through each kind of route. The paused replica is read-only: a write sent there would fail.
    const created = await a.post('/v1/sites', { hostname: 'new.replica.example.com' });
    expect(created.status).toBe(201);
    const put = await a.put(`/v1/sites/${created.body.id}/urls`, [{ loc: 'https://new.replica.example.com/x' }]);
    expect(put.status).toBe(200);
    expect((await a.patch(`/v1/sites/${siteA}`, { cacheMaxAge: 120 })).status).toBe(200);
    const build = await a.post(`/v1/sites/${siteA}/builds`, {});
    expect(build.status).toBe(202);
    expect((await a.delete(`/v1/sites/${doomedA}`)).status).toBe(204);
    const mutated = await graphqlA(
      'mutation($id: ID!) { updateSite(input: { id: $id, cacheMaxAge: 130 }) { site { cacheMaxAge } } }',
      { id: siteA },
    );
    expect(mutated.updateSite.site.cacheMaxAge).toBe(130);

    // The replica has replayed none of it…
    expect(await countOn(replica, 'sites', created.body.id)).toBe(0);
    expect(await countOn(replica, 'builds', build.body.buildId)).toBe(0);
    expect(await countOn(replica, 'sites', doomedA)).toBe(1);
    // …and A reads every write back at once, REST and GraphQL: from the primary.
    expect((await a.get(`/v1/sites/${created.body.id}`)).status).toBe(200);
    expect((await a.get(`/v1/sites/${created.body.id}/urls`)).body.items.map((url: any) => url.loc)).toEqual([
      'https://new.replica.example.com/x',
    ]);
    expect((await a.get(`/v1/sites/${siteA}/builds/${build.body.buildId}`)).status).toBe(200);
    expect((await a.get(`/v1/sites/${doomedA}`)).status).toBe(404);
    expect(await cacheMaxAge(a, siteA)).toBe(130);
    expect((await graphqlA('query($id: ID!) { site(id: $id) { cacheMaxAge } }', { id: siteA })).site.cacheMaxAge).toBe(
      130,
    );

    // B has written nothing the replica lacks: its reads come from the replica, which has not
    // replayed the change behind the API (a stale replay position read just before may still send
    // one read to the primary, hence the wait).
    const before = (
      await replica.query<{ age: number }>('SELECT cache_max_age AS age FROM sites WHERE id = $1', [siteB])
    ).rows[0]?.age;
    expect(before).not.toBe(777);
    await waitUntil('B to read from the replica', async () => (await cacheMaxAge(b, siteB)) === before);
    // At the same moment, A's reads still come from the primary.
    expect(await cacheMaxAge(a, siteA)).toBe(130);

    await pair.resumeReplay();
  }, 120_000);

  it('sends a tenant’s reads back to the replica once it has replayed the tenant’s writes', async () => {
    await pair.caughtUp();
    await pair.pauseReplay();
    await primary.query('UPDATE sites SET cache_max_age = 555 WHERE id = $1', [siteA]);
    // 130 is only on the replica now (the primary has 555): A's last write has been replayed.
    await waitUntil('A to read from the replica', async () => (await cacheMaxAge(a, siteA)) === 130);
    expect(await cacheMaxAge(b, siteB)).toBe(777);

    // A writes again: its reads go to the primary until the replica replays that write.
    expect((await a.patch(`/v1/sites/${siteA}`, { textSitemap: true })).status).toBe(200);
    expect(await cacheMaxAge(a, siteA)).toBe(555);
    await pair.resumeReplay();
    await pair.caughtUp();
    expect(await cacheMaxAge(a, siteA)).toBe(555);
  }, 120_000);
});
