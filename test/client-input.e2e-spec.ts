// Client input that once gave 500s (issue 13.8): every case is a clear 4xx naming the field,
// and nothing of it is stored.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api-client';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createTenantWithSite } from './support/tenant';

const HOST = 'input.example.com';
const cursorOf = (key: string) => Buffer.from(key).toString('base64url');

describe('client input', () => {
  let platform: Platform;
  let tenant: ReturnType<typeof apiClient>;
  let admin: ReturnType<typeof apiClient>;
  let siteId: string;

  beforeAll(async () => {
    platform = await startPlatform({}, { worker: false });
    admin = apiClient(platform.apiUrl, ADMIN_KEY);
    ({ api: tenant, siteId } = await createTenantWithSite(platform.apiUrl, 'Inputs', { hostname: HOST }));
  });
  afterAll(() => platform?.close());

  it('refuses cursors outside what the API writes: a bigint past Postgres, year 0000', async () => {
    const cases = [
      [`/v1/sites/${siteId}/builds?cursor=${cursorOf('9999999999999999999')}`],
      [`/v1/api-keys?cursor=${cursorOf(`0000-01-01T00:00:00.000Z|${randomUUID()}`)}`],
      [`/v1/sites?cursor=${cursorOf(`0000-01-01T00:00:00.000Z|${randomUUID()}`)}`],
    ];
    for (const [path] of cases) {
      const res = await tenant.get(path!);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code, path).toBe('INVALID_CURSOR');
    }
  });

  it('refuses a NUL character in any text field with 400 naming the field', async () => {
    const cases: [string, string, unknown, string][] = [
      ['GET', `/v1/sites/${siteId}/urls?prefix=${encodeURIComponent(`https://${HOST}/\u0000`)}`, undefined, 'prefix'],
      ['GET', `/v1/sites/${siteId}/urls?section=a%00b`, undefined, 'section'],
      ['POST', '/v1/api-keys', { name: 'k\u0000', scopes: ['read'] }, 'name'],
      ['PATCH', `/v1/sites/${siteId}`, { robotsTxt: 'User-agent: *\u0000' }, 'robotsTxt'],
      ['POST', `/v1/sites/${siteId}/imports/sitemaps`, { url: `https://${HOST}/sitemap\u0000.xml` }, 'url'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await tenant.call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        `${method} ${path}`,
      ).toContain(field);
    }
    const named = await admin.post('/v1/tenants', { name: 'Bad\u0000Name' });
    expect(named.status).toBe(400);
    expect(named.body.error.details).toEqual([expect.objectContaining({ field: 'name', code: 'NUL_CHARACTER' })]);
  });

  it('refuses a key whose scopes repeat', async () => {
    const res = await tenant.post('/v1/api-keys', { name: 'twice', scopes: ['read', 'read'] });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({ field: 'scopes', message: 'name each scope once' });
  });
});
