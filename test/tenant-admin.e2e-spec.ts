// Operator controls with the platform admin key, against real servers: tenants listed, read,
// given quotas, suspended (its sites answer 404 and its keys 401 TENANT_SUSPENDED at once, its
// builds stop), resumed and deleted; sites found across tenants by hostname; every action in the
// audit log with before and after.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { BuildProducer } from '@sitemaps/jobs';
import { rawRequest, waitUntil } from '@sitemaps/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api-client';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createTenant } from './support/tenant';

describe('operator controls', () => {
  let platform: Platform;
  let admin: ReturnType<typeof apiClient>;

  const gql = async (key: string, query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${platform.apiUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { data?: any; errors?: { extensions: { code: string } }[] },
    };
  };
  const served = async (host: string) => (await rawRequest(platform.publicUrl, '/sitemap.xml', { host })).status;

  /** A tenant with one published site at `host`. */
  async function tenantWithSite(name: string, host: string) {
    const { id, apiKey: key, api: client } = await createTenant(platform.apiUrl, name);
    const site = (await client.post('/v1/sites', { hostname: host })).body;
    await client.put(`/v1/sites/${site.id}/urls`, [{ loc: `https://${host}/a` }]);
    await client.waitForBuild(site.id, (await client.post(`/v1/sites/${site.id}/builds`, {})).body.buildId);
    expect(await served(host)).toBe(200);
    return { id, key, client, site };
  }

  beforeAll(async () => {
    platform = await startPlatform();
    admin = apiClient(platform.apiUrl, ADMIN_KEY);
  });
  afterAll(() => platform?.close());

  it('lists and reads tenants, and changes their quotas', async () => {
    const a = await tenantWithSite('Listed', 'listed.example.com');
    const listed = await admin.get('/v1/tenants?limit=1000');
    expect(listed.status).toBe(200);
    expect(listed.body.items).toContainEqual(
      expect.objectContaining({ id: a.id, name: 'Listed', siteCount: 1, suspendedAt: null, maxSites: null }),
    );
    expect((await admin.get(`/v1/tenants/${a.id}`)).body).toMatchObject({ id: a.id, siteCount: 1 });
    expect((await admin.get('/v1/tenants/00000000-0000-4000-8000-000000000000')).body.error.code).toBe(
      'TENANT_NOT_FOUND',
    );
    expect((await admin.get('/v1/tenants/not-a-uuid')).status).toBe(404);

    const changed = await admin.patch(`/v1/tenants/${a.id}`, { maxSites: 1, maxUrls: 10 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ maxSites: 1, maxUrls: 10 });
    const refused = await a.client.post('/v1/sites', { hostname: 'second.example.com' });
    expect(refused.body.error.code).toBe('QUOTA_SITES');
    expect((await admin.patch(`/v1/tenants/${a.id}`, { maxSites: -1 })).status).toBe(400);
    expect((await admin.patch(`/v1/tenants/${a.id}`, { unknown: 1 })).status).toBe(400);
    // Tenant keys have no say here.
    expect((await a.client.get('/v1/tenants')).status).toBe(403);
  });

  it('suspends a tenant: its sites 404 and its keys 401 at once; resumed, both come back', async () => {
    const t = await tenantWithSite('Suspended', 'paused.example.com');
    const suspended = await admin.post(`/v1/tenants/${t.id}/suspend`, { reason: 'unpaid invoice' });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ suspendedAt: expect.any(String), suspendedReason: 'unpaid invoice' });

    const rest = await t.client.get('/v1/sites');
    expect(rest.status).toBe(401);
    expect(rest.body.error.code).toBe('TENANT_SUSPENDED');
    const viaGql = await gql(t.key, '{ sites { nodes { id } } }');
    expect(viaGql.status).toBe(401);
    expect(viaGql.body.errors?.map((e) => e.extensions.code)).toEqual(['TENANT_SUSPENDED']);
    // The public server drops the site when the announcement arrives: no cache age to wait out.
    await waitUntil(
      'the suspended site to answer 404',
      async (seen) => seen(await served('paused.example.com')) === 404,
      { timeoutMs: 5_000 },
    );
    expect((await rawRequest(platform.publicUrl, '/robots.txt', { host: 'paused.example.com' })).status).toBe(404);
    expect((await admin.get('/v1/tenants?suspended=true')).body.items.map((x: { id: string }) => x.id)).toContain(t.id);

    const resumed = await admin.post(`/v1/tenants/${t.id}/resume`);
    expect(resumed.body).toMatchObject({ suspendedAt: null, suspendedReason: null });
    expect((await t.client.get('/v1/sites')).status).toBe(200);
    await waitUntil('the resumed site to be served', async (seen) => seen(await served('paused.example.com')) === 200, {
      timeoutMs: 5_000,
    });
  });

  it('runs no builds for a suspended tenant: a queued one fails with TENANT_SUSPENDED when planned', async () => {
    const t = await tenantWithSite('Builder', 'builder.example.com');
    await admin.post(`/v1/tenants/${t.id}/suspend`, { reason: 'abuse' });
    // A build queued just before the suspension reaches the worker after it.
    const pool = new Pool({ connectionString: platform.db.url, max: 1 });
    const redis = new Redis(platform.config.redisUrl, { maxRetriesPerRequest: null });
    try {
      const buildId = randomUUID();
      await pool.query(
        "INSERT INTO builds (id, site_id, status, \"full\", trigger) VALUES ($1, $2, 'queued', true, 'api')",
        [buildId, t.site.id],
      );
      const queue = BuildProducer.queue(redis, platform.config.queuePrefix);
      await new BuildProducer(queue, redis, platform.config.build).enqueueBuild({
        v: 1,
        siteId: t.site.id,
        buildId,
        full: true,
        trigger: 'api',
      });
      await queue.close();
      const build = await waitUntil('the build to be refused', async (seen) => {
        const { rows } = await pool.query<{ status: string; error: string | null }>(
          'SELECT status, error FROM builds WHERE id = $1',
          [buildId],
        );
        return seen(rows[0])?.status === 'failed' ? rows[0] : undefined;
      });
      expect(build?.error).toContain('TENANT_SUSPENDED');
    } finally {
      await pool.end();
      redis.disconnect();
      await admin.post(`/v1/tenants/${t.id}/resume`);
    }
  });

  it('finds the sites of every tenant for a hostname, in any spelling', async () => {
    const one = await tenantWithSite('First', 'shared.example.org');
    const other = apiClient(platform.apiUrl, (await admin.post('/v1/tenants', { name: 'Second' })).body.apiKey);
    // Development mode verifies on creation: a second tenant cannot have a verified twin.
    expect((await other.post('/v1/sites', { hostname: 'shared.example.org' })).body.error.code).toBe('HOSTNAME_TAKEN');
    const found = await admin.get('/v1/admin/sites?hostname=SHARED.example.org.');
    expect(found.body).toEqual({
      hostname: 'shared.example.org',
      items: [
        expect.objectContaining({ siteId: one.site.id, tenantId: one.id, tenantName: 'First', status: 'verified' }),
      ],
    });
    const viaGql = await gql(ADMIN_KEY, '{ hostnameClaims(hostname: "shared.example.org") { siteId status } }');
    expect(viaGql.body.data.hostnameClaims).toEqual([{ siteId: one.site.id, status: 'verified' }]);
    expect((await admin.get('/v1/admin/sites?hostname=a.com:80')).body.error.code).toBe('INVALID_HOSTNAME');
  });

  it('deletes a tenant with everything it has, and the audit log keeps who did what, when, before and after', async () => {
    const t = await tenantWithSite('Doomed', 'doomed.example.com');
    await admin.patch(`/v1/tenants/${t.id}`, { name: 'Doomed Ltd' });
    await admin.post(`/v1/tenants/${t.id}/suspend`, {});
    await admin.post(`/v1/tenants/${t.id}/resume`);
    expect((await admin.delete(`/v1/tenants/${t.id}`)).status).toBe(204);
    expect((await admin.get(`/v1/tenants/${t.id}`)).status).toBe(404);
    expect((await admin.delete(`/v1/tenants/${t.id}`)).status).toBe(404);
    expect((await t.client.get('/v1/sites')).status).toBe(401);
    await waitUntil(
      'the deleted site to answer 404',
      async (seen) => seen(await served('doomed.example.com')) === 404,
      { timeoutMs: 5_000 },
    );
    // The hostname is free again.
    const heir = apiClient(platform.apiUrl, (await admin.post('/v1/tenants', { name: 'Heir' })).body.apiKey);
    expect((await heir.post('/v1/sites', { hostname: 'doomed.example.com' })).status).toBe(201);

    const log = await admin.get(`/v1/admin/audit-log?targetId=${t.id}`);
    expect(log.status).toBe(200);
    const entries = log.body.items as {
      action: string;
      actor: string;
      actorIp: string | null;
      before: any;
      after: any;
      createdAt: string;
    }[];
    expect(entries.map((e) => e.action)).toEqual([
      'tenant.delete',
      'tenant.resume',
      'tenant.suspend',
      'tenant.update',
      'tenant.create',
    ]);
    for (const entry of entries)
      expect(entry).toMatchObject({ actor: 'platform', actorIp: '127.0.0.1', createdAt: expect.any(String) });
    const [deleted, resumed, suspended, renamed, created] = entries;
    expect(created).toMatchObject({ before: null, after: { id: t.id, name: 'Doomed' } });
    expect(renamed).toMatchObject({ before: { name: 'Doomed' }, after: { name: 'Doomed Ltd' } });
    expect(suspended).toMatchObject({ before: { suspendedAt: null }, after: { suspendedAt: expect.any(String) } });
    expect(resumed).toMatchObject({ before: { suspendedAt: expect.any(String) }, after: { suspendedAt: null } });
    expect(deleted).toMatchObject({ before: { id: t.id, name: 'Doomed Ltd', siteCount: 1 }, after: null });

    // Paged newest first, REST and GraphQL alike.
    const first = await admin.get('/v1/admin/audit-log?limit=2');
    expect(first.body.items).toHaveLength(2);
    const next = await admin.get(`/v1/admin/audit-log?limit=2&cursor=${first.body.nextCursor}`);
    expect(Number(next.body.items[0].id)).toBeLessThan(Number(first.body.items[1].id));
    const viaGql = await gql(
      ADMIN_KEY,
      'query($t: String) { auditLog(targetId: $t, first: 10) { nodes { action before after } } }',
      { t: t.id },
    );
    expect(viaGql.body.data.auditLog.nodes.map((n: { action: string }) => n.action)).toEqual(
      entries.map((e) => e.action),
    );
  });
});
