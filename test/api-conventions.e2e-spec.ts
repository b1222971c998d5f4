// Conventions every client can rely on, against the real API: Location on each 201/202,
// Idempotency-Key replays on the POSTs that create, RateLimit-* headers on every answer to a
// keyed request, and a rate limit that counts a tenant's keys together.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiApp } from '../apps/api/src/api.app';
import { apiClient } from './support/api-client';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createTenant } from './support/tenant';

describe('API conventions', () => {
  let platform: Platform;
  let admin: ReturnType<typeof apiClient>;
  let key: string;
  let api: ReturnType<typeof apiClient>;

  const newTenant = async (name: string) => (await createTenant(platform.apiUrl, name)).apiKey;
  const withKey = (idempotencyKey: string, client = api) => ({
    post: (path: string, body?: unknown) =>
      client.call('POST', path, body, { headers: { 'idempotency-key': idempotencyKey } }),
  });

  beforeAll(async () => {
    platform = await startPlatform();
    admin = apiClient(platform.apiUrl, ADMIN_KEY);
    key = await newTenant('Conventions');
    api = apiClient(platform.apiUrl, key);
  });
  afterAll(() => platform?.close());

  it('answers every 201 and 202 with the Location of what it created or queued', async () => {
    const tenant = await admin.post('/v1/tenants', { name: 'Located' });
    expect(tenant.status).toBe(201);
    expect(tenant.headers.get('location')).toBe(`/v1/tenants/${tenant.body.id}`);
    const apiKey = await api.post('/v1/api-keys', { name: 'k', scopes: ['read'] });
    expect(apiKey.headers.get('location')).toBe(`/v1/api-keys/${apiKey.body.id}`);
    const site = await api.post('/v1/sites', { hostname: 'located.example.com' });
    expect(site.status).toBe(201);
    expect(site.headers.get('location')).toBe(`/v1/sites/${site.body.id}`);
    expect((await api.get(site.headers.get('location')!)).body.id).toBe(site.body.id);
    const build = await api.post(`/v1/sites/${site.body.id}/builds`, {});
    expect(build.status).toBe(202);
    expect((await api.get(build.headers.get('location')!)).body.id).toBe(build.body.buildId);
    const upload = await api.call('POST', `/v1/sites/${site.body.id}/urls/import`, undefined, {
      raw: JSON.stringify({ loc: 'https://located.example.com/a' }),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(upload.status).toBe(201);
    expect((await api.get(upload.headers.get('location')!)).body).toMatchObject({
      id: upload.body.importId,
      status: 'completed',
    });
    const sitemaps = await api.post(`/v1/sites/${site.body.id}/imports/sitemaps`, {
      url: 'https://located.example.com/sitemap.xml',
    });
    expect(sitemaps.status).toBe(202);
    expect(sitemaps.headers.get('location')).toBe(`/v1/sites/${site.body.id}/imports/${sitemaps.body.importId}`);
    // Other answers carry none.
    expect((await api.get(`/v1/sites/${site.body.id}`)).headers.get('location')).toBeNull();
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer to the same key and body, once created, and refuses another body with 422', async () => {
      const first = await withKey('site-1').post('/v1/sites', { hostname: 'once.example.com' });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await withKey('site-1').post('/v1/sites', { hostname: 'once.example.com' });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const sites = (await api.get('/v1/sites?limit=1000')).body.items as { hostname: string }[];
      expect(sites.filter((site) => site.hostname === 'once.example.com')).toHaveLength(1);

      const other = await withKey('site-1').post('/v1/sites', { hostname: 'twice.example.com' });
      expect(other.status).toBe(422);
      expect(other.body.error).toMatchObject({
        code: 'IDEMPOTENCY_KEY_REUSED',
        details: [expect.objectContaining({ field: 'Idempotency-Key' })],
      });
      // Another route is another request too.
      expect((await withKey('site-1').post(`/v1/sites/${first.body.id}/builds`, {})).status).toBe(422);
      // Without a key, the same body is a new request: here a hostname already taken.
      expect((await api.post('/v1/sites', { hostname: 'once.example.com' })).status).toBe(409);
    });

    it('replays builds and sitemaps imports: one build, one import', async () => {
      const siteId = (await api.post('/v1/sites', { hostname: 'builds.idempotent.example.com' })).body.id;
      const builds = await Promise.all(
        [0, 1].map(async () => withKey(`build-${siteId}`).post(`/v1/sites/${siteId}/builds`, { full: true })),
      );
      // Sent at once, the second may find the first still running: 409, and a retry replays it.
      const retried = await Promise.all(
        builds.map(async (res) =>
          res.status === 409 ? withKey(`build-${siteId}`).post(`/v1/sites/${siteId}/builds`, { full: true }) : res,
        ),
      );
      expect(retried.map((res) => res.status)).toEqual([202, 202]);
      expect(retried[0]!.body.buildId).toBe(retried[1]!.body.buildId);
      const listed = (await api.get(`/v1/sites/${siteId}/builds`)).body.items as { trigger: string }[];
      expect(listed.filter((build) => build.trigger === 'api')).toHaveLength(1);

      const body = { url: 'https://builds.idempotent.example.com/sitemap.xml' };
      const imports = [
        await withKey('sitemaps').post(`/v1/sites/${siteId}/imports/sitemaps`, body),
        await withKey('sitemaps').post(`/v1/sites/${siteId}/imports/sitemaps`, body),
      ];
      expect(imports[1]!.body.importId).toBe(imports[0]!.body.importId);
      expect(imports[1]!.headers.get('location')).toBe(imports[0]!.headers.get('location'));
    });

    it("replays an upload: the body is hashed as it streams, and a retry's body is read to compare", async () => {
      const siteId = (await api.post('/v1/sites', { hostname: 'upload.idempotent.example.com' })).body.id;
      const ndjson = (paths: string[]) =>
        paths.map((path) => JSON.stringify({ loc: `https://upload.idempotent.example.com${path}` })).join('\n');
      const upload = (body: string) =>
        api.call('POST', `/v1/sites/${siteId}/urls/import`, undefined, {
          raw: body,
          headers: { 'content-type': 'application/x-ndjson', 'idempotency-key': 'upload-1' },
        });
      const first = await upload(ndjson(['/a', '/b']));
      expect(first.status).toBe(201);
      const again = await upload(ndjson(['/a', '/b']));
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      const other = await upload(ndjson(['/a', '/c']));
      expect(other.status).toBe(422);
      expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect((await api.get(`/v1/sites/${siteId}/imports`)).body.items).toHaveLength(1);
      expect((await api.get(`/v1/sites/${siteId}/urls`)).body.items).toHaveLength(2);
    });

    it('keeps keys per tenant, gives a failed request its key back, and refuses a malformed key', async () => {
      const otherKey = await newTenant('Other conventions');
      const mine = await withKey('shared').post('/v1/sites', { hostname: 'mine.example.com' });
      const theirs = await withKey('shared', apiClient(platform.apiUrl, otherKey)).post('/v1/sites', {
        hostname: 'theirs.example.com',
      });
      expect([mine.status, theirs.status]).toEqual([201, 201]);
      expect(theirs.body.id).not.toBe(mine.body.id);

      const refused = await withKey('retry-me').post('/v1/sites', { hostname: 'not a hostname' });
      expect(refused.status).toBe(400);
      const fixed = await withKey('retry-me').post('/v1/sites', { hostname: 'fixed.example.com' });
      expect(fixed.status).toBe(201);

      const bad = await withKey('x'.repeat(256)).post('/v1/sites', { hostname: 'long-key.example.com' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
    });
  });

  describe('rate limits', () => {
    let limited: NestFastifyApplication;
    let limitedUrl: string;

    beforeAll(async () => {
      // A second API on the same database and Redis: 3 requests per key, 4 per tenant, per minute.
      limited = await createApiApp(platform.config, {
        rateLimit: { points: 3, durationSeconds: 60 },
        tenantRateLimit: { points: 4 },
      });
      await limited.listen(0, '127.0.0.1');
      limitedUrl = (await limited.getUrl()).replace('[::1]', '127.0.0.1');
    });
    afterAll(() => limited?.close());

    it('sends RateLimit-Limit, -Remaining and -Reset on every answer to a keyed request, errors and GraphQL included', async () => {
      const res = await api.get('/v1/sites');
      expect(res.headers.get('ratelimit-limit')).toBe('100');
      const remaining = Number(res.headers.get('ratelimit-remaining'));
      expect(remaining).toBeGreaterThanOrEqual(0);
      expect(remaining).toBeLessThan(100);
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(0);
      const notFound = await api.get('/v1/sites/00000000-0000-4000-8000-000000000000');
      expect(notFound.status).toBe(404);
      expect(notFound.headers.get('ratelimit-limit')).toBe('100');
      const gql = await fetch(`${platform.apiUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: '{ sites { nodes { id } } }' }),
      });
      expect(gql.headers.get('ratelimit-limit')).toBe('100');
      const unknownKey = await apiClient(platform.apiUrl, 'smk_unknown').get('/v1/sites');
      expect(unknownKey.status).toBe(401);
      expect(unknownKey.headers.get('ratelimit-remaining')).not.toBeNull();
    });

    it("counts a tenant's keys together: a second key does not raise the limit", async () => {
      const tenantKey = await newTenant('Limited');
      const first = apiClient(limitedUrl, tenantKey);
      const second = apiClient(
        limitedUrl,
        (await first.post('/v1/api-keys', { name: 'second', scopes: ['read'] })).body.apiKey,
      );
      // That was the first key's first request (and the tenant's).
      const seen: [number, string | null][] = [];
      for (let i = 0; i < 2; i++) {
        const res = await first.get('/v1/sites');
        seen.push([res.status, res.headers.get('ratelimit-remaining')]);
      }
      expect(seen).toEqual([
        [200, '1'],
        [200, '0'],
      ]);
      const overKey = await first.get('/v1/sites');
      expect(overKey.status).toBe(429);
      expect(overKey.body.error.message).toContain('for this key');
      expect(overKey.headers.get('ratelimit-limit')).toBe('3');

      // The tenant has spent 3 of its 4 (the refused request spent none of the tenant's): one left for the second key.
      const last = await second.get('/v1/sites');
      expect(last.status).toBe(200);
      expect([last.headers.get('ratelimit-limit'), last.headers.get('ratelimit-remaining')]).toEqual(['4', '0']);
      const overTenant = await second.get('/v1/sites');
      expect(overTenant.status).toBe(429);
      expect(overTenant.body.error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('tenant') });
      expect(overTenant.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(overTenant.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(overTenant.headers.get('ratelimit-reset'))).toBeGreaterThan(0);

      // Another tenant is not affected.
      expect((await apiClient(limitedUrl, await newTenant('Unaffected')).get('/v1/sites')).status).toBe(200);
    });
  });
});
