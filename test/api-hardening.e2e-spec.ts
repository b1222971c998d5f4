// What an unauthenticated or hostile client can make the admin API do, against the API as
// production runs it (its own process, production heap): bodies are refused before they are
// read or parsed unless a key vouches for them, and every body is bounded by its route.
import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiApp } from '../apps/api/src/api.app';
import { apiClient } from './support/api-client';
import { sendRaw, spawnApi, type ApiProcess } from './support/api-process';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createTenantWithSite } from './support/tenant';

const SITE = 'hardening.example.com';
/** 12 MiB of empty objects: four million of them once parsed, beyond the API's 256 MB heap. */
const EMPTY_OBJECTS = `[${'{},'.repeat(4 * 1024 * 1024)}{}]`;

describe('admin API under hostile bodies', () => {
  let platform: Platform;
  let api: ApiProcess;
  let key: string;
  let siteId: string;
  let db: Pool;

  beforeAll(async () => {
    platform = await startPlatform({}, { worker: false });
    db = new Pool({ connectionString: platform.db.url, max: 1 });
    api = await spawnApi(platform.env);
    ({ apiKey: key, siteId } = await createTenantWithSite(api.url, 'Hardening', { hostname: SITE }));
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await db?.end();
    await platform?.close();
  });

  const stored = async () =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM urls WHERE site_id = $1', [siteId])).rows[0]?.n;

  it('refuses an unauthenticated 12 MiB body before reading it, and closes the connection', async () => {
    for (const [method, path] of [
      ['PUT', `/v1/sites/${randomUUID()}/urls`],
      ['POST', '/graphql'],
    ] as const) {
      const res = await sendRaw(`${api.url}${path}`, method, { 'content-type': 'application/json' }, EMPTY_OBJECTS);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.connection).toBe('close');
      expect(res.text).toContain('UNAUTHENTICATED');
    }
    expect((await fetch(`${api.url}/health`)).status).toBe(200);
    expect(api.child.exitCode).toBeNull();
  });

  it('refuses an authenticated body of too many JSON values with 413 naming the limit, and stores nothing', async () => {
    const res = await sendRaw(
      `${api.url}/v1/sites/${siteId}/urls`,
      'PUT',
      { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      EMPTY_OBJECTS,
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('API_JSON_MAX_VALUES'), details: [] },
    });
    expect((await fetch(`${api.url}/health`)).status).toBe(200);
    expect(await stored()).toBe(0);
  });

  it('bounds each route by its own body limit: small routes take 1 MiB, bulk routes 32 MiB', async () => {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
    const robots = await sendRaw(
      `${api.url}/v1/sites/${siteId}`,
      'PATCH',
      headers,
      JSON.stringify({ robotsTxt: 'x'.repeat(2 * 1024 * 1024) }),
    );
    expect(robots.status).toBe(413);
    const bulk = await sendRaw(
      `${api.url}/v1/sites/${siteId}/urls`,
      'PUT',
      headers,
      JSON.stringify([{ loc: `https://${SITE}/a`, section: 'x'.repeat(40 * 1024 * 1024) }]),
    );
    expect(bulk.status).toBe(413);
    // A bulk body over the small limit is fine.
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      loc: `https://${SITE}/page/${i}/${'p'.repeat(150)}`,
      lastmod: '2026-11-24',
      changefreq: 'daily',
      priority: 0.5,
    }));
    const put = await apiClient(api.url, key).put(`/v1/sites/${siteId}/urls`, entries);
    expect(put.status).toBe(200);
    expect(put.body.upserted).toBe(10_000);
    expect(await stored()).toBe(10_000);
  });

  it('answers 400 to a body that is not UTF-8, storing nothing from it', async () => {
    const body = Buffer.concat([Buffer.from(`[{"loc":"https://${SITE}/caf`), Buffer.from([0xe9]), Buffer.from('"}]')]);
    const res = await sendRaw(
      `${api.url}/v1/sites/${siteId}/urls`,
      'PUT',
      { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toEqual({
      code: 'MALFORMED_BODY',
      message: 'the body is not valid UTF-8',
      details: [],
    });
    const found = await db.query('SELECT 1 FROM urls WHERE site_id = $1 AND loc LIKE $2', [siteId, '%/caf%']);
    expect(found.rowCount).toBe(0);
  });

  it('refuses a body that is not JSON or names __proto__, spelled out or escaped, storing nothing', async () => {
    const put = (body: string) =>
      sendRaw(
        `${api.url}/v1/sites/${siteId}/urls`,
        'PUT',
        { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        Buffer.from(body),
      );
    const entry = (path: string) => `{"loc":"https://${SITE}/${path}"}`;
    for (const body of [
      `[${entry('poisoned-1')},{"loc":"https://${SITE}/poisoned-2","__proto__":{"x":1}}]`,
      `[${entry('poisoned-3')},{"loc":"https://${SITE}/poisoned-4","\\u005f_proto__":{"x":1}}]`,
      `[${entry('poisoned-5')},{"loc":"https://${SITE}/poisoned-6","constructor":{"prototype":{"x":1}}}]`,
      `[${entry('poisoned-7')},`,
    ]) {
      const res = await put(body);
      expect(res.status, body).toBe(400);
      expect(JSON.parse(res.text).error, body).toEqual({
        code: 'MALFORMED_BODY',
        message: expect.stringContaining('JSON'),
        details: [],
      });
    }
    const found = await db.query('SELECT 1 FROM urls WHERE site_id = $1 AND loc LIKE $2', [siteId, '%/poisoned-%']);
    expect(found.rowCount).toBe(0);
    // A loc that merely holds those words is parsed and stored as any other.
    const res = await put(`[${entry('constructor/__proto__/caf\\u00e9')}]`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).upserted).toBe(1);
  });

  it('refuses a GraphQL document over its length limit before parsing it', async () => {
    const query = `{ ${Array.from({ length: 20_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const res = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query }),
    });
    expect(res.status).toBe(413);
    expect(
      ((await res.json()) as { errors: { extensions: { code: string } }[] }).errors.map((e) => e.extensions.code),
    ).toEqual(['PAYLOAD_TOO_LARGE']);
  });

  it('refuses a hreflang cluster over 256 members by entry, storing the rest, and takes one of 256', async () => {
    const client = apiClient(api.url, key);
    // 1,000 pages, the first naming all 1,000 as its cluster: the probe that exhausted the heap.
    const pages = Array.from({ length: 1_000 }, (_, i) => `https://${SITE}/cluster/${i}`);
    const huge = pages.map((loc, i) =>
      i === 0 ? { loc, alternates: pages.map((href, k) => ({ hreflang: `x${k}`, href })) } : { loc },
    );
    const refused = await client.put(`/v1/sites/${siteId}/urls`, huge);
    expect(refused.status).toBe(200);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ index: 0, field: 'alternates', code: 'CLUSTER_TOO_LARGE' }),
    ]);
    expect(refused.body.upserted).toBe(999);
    // 256 pages each naming all 256 (8 languages in 32 regions): stored whole.
    const regions =
      'US GB DE FR ES IT NL PT PL SE NO DK FI IE AT CH BE LU CZ SK HU RO BG GR TR UA JP KR CN TW HK CA'.split(' ');
    const codes = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl'].flatMap((lang) =>
      regions.map((region) => `${lang}-${region}`),
    );
    const members = codes.map((hreflang, i) => ({ hreflang, href: `https://${SITE}/full/${i}` }));
    const full = await client.put(
      `/v1/sites/${siteId}/urls`,
      members.map(({ href }) => ({ loc: href, alternates: members })),
    );
    expect(full.body.errors).toEqual([]);
    expect(full.body.upserted).toBe(256);
    expect((await fetch(`${api.url}/health`)).status).toBe(200);
  });

  it("answers a path the router cannot decode in the API's error shape", async () => {
    const res = await sendRaw(`${api.url}/v1/sites/%E0%A4%A`, 'GET', { authorization: `Bearer ${key}` }, '');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      error: { code: 'MALFORMED_URL', message: expect.any(String), details: [] },
    });
  });

  it('accepts the bearer scheme in any case', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await fetch(`${api.url}/v1/sites`, { headers: { authorization: `${scheme} ${key}` } });
      expect(res.status, scheme).toBe(200);
    }
  });

  describe('failed authentication', () => {
    let limited: NestFastifyApplication;
    let limitedUrl: string;

    beforeAll(async () => {
      limited = await createApiApp(platform.config, { authFailures: { points: 3, durationSeconds: 60 } });
      await limited.listen(0, '127.0.0.1');
      limitedUrl = (await limited.getUrl()).replace('[::1]', '127.0.0.1');
    });
    afterAll(() => limited?.close());

    it('is rate limited per address and key prefix: 429 with Retry-After once the same bad key is spent', async () => {
      const stale = 'smk_stale000_revoked_or_mistyped';
      for (let i = 0; i < 3; i++) expect((await apiClient(limitedUrl, stale).get('/v1/sites')).status).toBe(401);
      const refused = await apiClient(limitedUrl, stale).get('/v1/sites');
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // A request without any key is no guess and still gets 401.
      expect((await apiClient(limitedUrl).get('/v1/sites')).status).toBe(401);
    });

    it('never refuses a valid key, nor another key, because of bad keys from the same address', async () => {
      // Behind one proxy or NAT, someone spends a bad key's allowance many times over...
      const other = 'smk_attacker_flooding_the_address';
      for (let i = 0; i < 6; i++) await apiClient(limitedUrl, other).get('/v1/sites');
      expect((await apiClient(limitedUrl, other).get('/v1/sites')).status).toBe(429);
      // ...and every valid key from that address still works, the platform's included.
      expect((await apiClient(limitedUrl, key).get('/v1/sites')).status).toBe(200);
      expect((await apiClient(limitedUrl, ADMIN_KEY).get('/v1/tenants')).status).toBe(200);
      // A mistyped key of a neighbour is judged on its own: 401, which says what is wrong.
      const typo = await apiClient(limitedUrl, 'smk_neighbour_mistyped').get('/v1/sites');
      expect(typo.status).toBe(401);
      expect(typo.body.error.code).toBe('UNAUTHENTICATED');
    });
  });
});
