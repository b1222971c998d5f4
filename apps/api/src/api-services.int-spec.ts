// The API's services without HTTP: the api's own wiring, initialised but never listening, on the
// test's Postgres and Redis, each service called as its controller and resolver call it. What the
// e2e files prove through requests, here at the level a change to a service is made.
import 'reflect-metadata';
import { Readable } from 'node:stream';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@sitemaps/config';
import { insertTenant, testRedisUrl, uniqueQueuePrefix, useTestPool } from '@sitemaps/testing';
import { TenantAdminService } from './admin/tenant-admin.service';
import { createApiApp } from './api.app';
import { ApiKeysService } from './auth/api-keys.service';
import { ImportsService } from './imports/imports.service';
import { SitesService } from './sites/sites.service';
import { TenantsService } from './tenants/tenants.service';
import { WebhooksService } from './webhooks/webhooks.service';

const ADMIN_KEY = 'int-spec-admin-key-0123456789';
const PLATFORM = { actor: 'platform', ip: null };
const FIRST = { first: 10, after: undefined };

describe('API services (real Postgres and Redis, no HTTP)', () => {
  const db = useTestPool();
  let app: INestApplicationContext;
  let sites: SitesService;
  let keys: ApiKeysService;
  let tenants: TenantsService;
  let admin: TenantAdminService;
  let webhooks: WebhooksService;
  let imports: ImportsService;

  beforeAll(async () => {
    const config = parseConfig({
      DATABASE_URL: db.db.url,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: uniqueQueuePrefix('api-services'),
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'silent',
      SITE_VERIFICATION: 'off',
      INDEXNOW_ENDPOINTS: 'off',
    });
    // The API's own bootstrap (GraphQL wants its HTTP adapter), initialised but never listening.
    app = await createApiApp(config);
    await app.init();
    sites = app.get(SitesService);
    keys = app.get(ApiKeysService);
    tenants = app.get(TenantsService);
    admin = app.get(TenantAdminService);
    webhooks = app.get(WebhooksService);
    imports = app.get(ImportsService);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function tenantWithKey() {
    const tenant = await tenants.create({ name: 'Acme' }, PLATFORM);
    return { tenantId: tenant.id, key: tenant.apiKey };
  }

  describe('SitesService', () => {
    it('creates a site with its hostname in one form, and hides it from other tenants', async () => {
      const { tenantId } = await tenantWithKey();
      const other = await tenantWithKey();
      const site = await sites.create(tenantId, { hostname: 'WWW.Shop-Services.example.COM.' });
      expect(site).toMatchObject({ hostname: 'www.shop-services.example.com' });
      expect((await sites.view(tenantId, site.id)).id).toBe(site.id);
      await expect(sites.view(other.tenantId, site.id)).rejects.toMatchObject({ code: 'SITE_NOT_FOUND' });
      await expect(sites.view(tenantId, 'not-a-uuid')).rejects.toMatchObject({ code: 'SITE_NOT_FOUND' });
    });

    it("refuses a site past the tenant's quota, and a robots.txt it cannot read", async () => {
      const { id: tenantId } = await insertTenant(db.pool, { maxSites: 1 });
      await sites.create(tenantId, { hostname: 'quota-one.example.com' });
      await expect(sites.create(tenantId, { hostname: 'quota-two.example.com' })).rejects.toMatchObject({
        code: 'QUOTA_SITES',
      });
      const [only] = (await sites.list(tenantId, FIRST)).edges;
      await expect(sites.update(tenantId, only?.node.id ?? '', { robotsTxt: 'Disallow /x' })).rejects.toMatchObject({
        kind: 'invalid',
      });
    });

    it('removes a site: it is gone for its tenant', async () => {
      const { tenantId } = await tenantWithKey();
      const site = await sites.create(tenantId, { hostname: 'gone.example.com' });
      await sites.remove(tenantId, site.id);
      await expect(sites.view(tenantId, site.id)).rejects.toMatchObject({ code: 'SITE_NOT_FOUND' });
    });
  });

  describe('ApiKeysService', () => {
    it('authenticates a key it created, and not once it is revoked', async () => {
      const { tenantId } = await tenantWithKey();
      const created = await keys.create(tenantId, 'ci', ['read']);
      expect(await keys.authenticate(created.key)).toMatchObject({ kind: 'tenant', tenantId, scopes: ['read'] });
      await keys.revoke(tenantId, created.id);
      await expect(keys.authenticate(created.key)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
      expect((await keys.get(tenantId, created.id)).revokedAt).not.toBeNull();
    });

    it("keeps a tenant's keys its own, and knows the platform key", async () => {
      const { tenantId } = await tenantWithKey();
      const other = await tenantWithKey();
      const created = await keys.create(tenantId, 'mine', ['write']);
      await expect(keys.revoke(other.tenantId, created.id)).rejects.toMatchObject({ code: 'API_KEY_NOT_FOUND' });
      expect(await keys.authenticate(ADMIN_KEY)).toEqual({ kind: 'platform' });
      await expect(keys.authenticate(undefined)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    });
  });

  describe('TenantAdminService', () => {
    it('suspends a tenant so its keys stop working, and resumes it, each in the audit log', async () => {
      const { tenantId, key } = await tenantWithKey();
      expect(await admin.suspend(tenantId, 'unpaid', PLATFORM)).toMatchObject({ id: tenantId });
      await expect(keys.authenticate(key)).rejects.toMatchObject({ code: 'TENANT_SUSPENDED' });
      await admin.resume(tenantId, PLATFORM);
      expect(await keys.authenticate(key)).toMatchObject({ kind: 'tenant', tenantId });
      const log = await admin.auditLog({ first: 10, after: undefined, targetId: tenantId });
      expect(log.edges.map((edge) => edge.node.action)).toEqual(['tenant.resume', 'tenant.suspend', 'tenant.create']);
    });

    it('deletes a tenant with its sites', async () => {
      const { tenantId } = await tenantWithKey();
      const site = await sites.create(tenantId, { hostname: 'deleted-tenant.example.com' });
      await admin.remove(tenantId, PLATFORM);
      await expect(admin.get(tenantId)).rejects.toMatchObject({ code: 'TENANT_NOT_FOUND' });
      const left = await db.pool.query('SELECT count(*)::int AS n FROM sites WHERE id = $1', [site.id]);
      expect(left.rows[0]).toEqual({ n: 0 });
    });
  });

  describe('WebhooksService', () => {
    it('creates an endpoint with a generated secret shown once, and keeps it from other tenants', async () => {
      const { tenantId } = await tenantWithKey();
      const other = await tenantWithKey();
      const created = await webhooks.create(tenantId, {
        url: 'https://hooks.example.com/in',
        eventTypes: ['build.published', 'build.published'],
      });
      expect(created.secret).toMatch(/^whsec_/);
      expect(created.eventTypes).toEqual(['build.published']);
      const read = await webhooks.get(tenantId, created.id);
      expect(read).not.toHaveProperty('secret');
      await expect(webhooks.get(other.tenantId, created.id)).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('refuses an endpoint on a private address', async () => {
      const { tenantId } = await tenantWithKey();
      await expect(
        webhooks.create(tenantId, { url: 'http://127.0.0.1:9/hook', eventTypes: ['build.failed'] }),
      ).rejects.toMatchObject({ kind: 'invalid' });
    });
  });

  describe('ImportsService', () => {
    it('stores the good lines of an upload and lists the rejected ones with their line', async () => {
      const { tenantId } = await tenantWithKey();
      const site = await sites.create(tenantId, { hostname: 'upload.example.com' });
      const body = Readable.from([
        `${JSON.stringify({ loc: 'https://upload.example.com/a' })}\n`,
        `${JSON.stringify({ loc: 'https://elsewhere.example.com/b' })}\n`,
        `${JSON.stringify({ loc: 'https://upload.example.com/c' })}\n`,
      ]);
      const result = await imports.upload(tenantId, site.id, {
        format: 'ndjson',
        mode: 'upsert',
        body,
        contentEncoding: undefined,
      });
      expect(result).toMatchObject({ stored: 2, rejected: 1 });
      const rejections = await imports.rejections(tenantId, site.id, result.importId, FIRST);
      expect(rejections.edges.map((edge) => edge.node)).toMatchObject([{ line: 2, code: 'URL_HOST_MISMATCH' }]);
      const stored = await db.pool.query('SELECT count(*)::int AS n FROM urls WHERE site_id = $1', [site.id]);
      expect(stored.rows[0]).toEqual({ n: 2 });
    });

    it("queues a sitemaps import, and keeps another tenant's site out of reach", async () => {
      const { tenantId } = await tenantWithKey();
      const other = await tenantWithKey();
      const site = await sites.create(tenantId, { hostname: 'sitemaps-import.example.com' });
      const queued = await imports.importSitemaps(tenantId, site.id, 'https://sitemaps-import.example.com/sitemap.xml');
      expect(queued.status).toBe('queued');
      expect(await imports.get(tenantId, site.id, queued.importId)).toMatchObject({ status: 'queued' });
      await expect(
        imports.importSitemaps(other.tenantId, site.id, 'https://sitemaps-import.example.com/sitemap.xml'),
      ).rejects.toMatchObject({ code: 'SITE_NOT_FOUND' });
    });
  });
});
