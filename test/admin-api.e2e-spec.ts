// Bad input and tenant isolation at the REST boundary: clear 4xx errors, nothing valid lost.
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api-client';
import { fetchFile } from './support/crawler';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createSite, createTenant } from './support/tenant';

describe('admin API: errors and isolation', () => {
  let platform: Platform;
  let a: ReturnType<typeof apiClient>;
  let b: ReturnType<typeof apiClient>;
  let siteA: string;

  beforeAll(async () => {
    platform = await startPlatform();
    ({ api: a } = await createTenant(platform.apiUrl, 'A'));
    ({ api: b } = await createTenant(platform.apiUrl, 'B'));
    siteA = await createSite(a, { hostname: 'a.example.com' });
  });
  afterAll(() => platform?.close());

  it('answers 401 without a key or with a wrong one, in the one error shape', async () => {
    const none = await apiClient(platform.apiUrl).get('/v1/sites');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String), details: [] } });
    expect((await apiClient(platform.apiUrl, 'smk_wrong').get('/v1/sites')).status).toBe(401);
  });

  it('lets only the platform key create tenants', async () => {
    expect((await a.post('/v1/tenants', { name: 'X' })).status).toBe(403);
    expect((await apiClient(platform.apiUrl, ADMIN_KEY).post('/v1/tenants', {})).status).toBe(400);
  });

  it("hides another tenant's site behind 404 on every route", async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', `/v1/sites/${siteA}`],
      ['PATCH', `/v1/sites/${siteA}`, { scheme: 'http' }],
      ['DELETE', `/v1/sites/${siteA}`],
      ['PUT', `/v1/sites/${siteA}/urls`, [{ loc: 'https://a.example.com/x' }]],
      ['GET', `/v1/sites/${siteA}/urls`],
      ['DELETE', `/v1/sites/${siteA}/urls`, { locs: ['https://a.example.com/x'] }],
      ['POST', `/v1/sites/${siteA}/builds`, {}],
      ['GET', `/v1/sites/${siteA}/builds`],
    ];
    for (const [method, path, body] of routes) {
      const res = await b.call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('SITE_NOT_FOUND');
    }
    expect((await b.get('/v1/sites')).body.items).toEqual([]);
    expect((await a.get(`/v1/sites/${siteA}`)).status).toBe(200);
  });

  it('rejects malformed JSON with 400 and a duplicate hostname with 409', async () => {
    const malformed = await a.call('PUT', `/v1/sites/${siteA}/urls`, undefined, { raw: '[{"loc": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('MALFORMED_BODY');
    const duplicate = await b.post('/v1/sites', { hostname: 'A.example.com' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('HOSTNAME_TAKEN');
    expect((await a.post('/v1/sites', { hostname: 'https://bad/path' })).status).toBe(400);
  });

  it('reports each bad entry by index and field while storing the valid ones', async () => {
    const long = `https://a.example.com/${'x'.repeat(2_100)}`;
    const res = await a.put(`/v1/sites/${siteA}/urls`, [
      { loc: 'https://a.example.com/ok-1', lastmod: '2026-01-02', changefreq: 'daily', priority: 0.8 },
      { loc: 'https://elsewhere.example.com/x' },
      { loc: '/relative/path' },
      { loc: long },
      { loc: 'https://a.example.com/bad-cf', changefreq: 'sometimes' },
      { loc: 'https://a.example.com/bad-prio', priority: 1.5 },
      { loc: 'https://a.example.com/bad-date', lastmod: '2026-13-45' },
      { loc: 'https://a.example.com/ok-2' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.upserted).toBe(2);
    const byIndex = Object.fromEntries(
      res.body.errors.map((e: { index: number; field: string; code: string }) => [e.index, `${e.field}:${e.code}`]),
    );
    expect(byIndex).toEqual({
      1: 'loc:URL_HOST_MISMATCH',
      2: expect.stringMatching(/^loc:/),
      3: 'loc:LOC_TOO_LONG',
      4: 'changefreq:INVALID_CHANGEFREQ',
      5: 'priority:INVALID_PRIORITY',
      6: 'lastmod:INVALID_LASTMOD',
    });
    const stored = await a.get(`/v1/sites/${siteA}/urls`);
    expect(stored.body.items.map((item: { loc: string }) => item.loc)).toEqual([
      'https://a.example.com/ok-1',
      'https://a.example.com/ok-2',
    ]);
    expect(stored.body.items[0]).toMatchObject({ lastmod: '2026-01-02', changefreq: 'daily', priority: 0.8 });
  });

  it('keeps identical upserts a no-op and refuses over-long batches', async () => {
    const again = await a.put(`/v1/sites/${siteA}/urls`, [
      { loc: 'https://a.example.com/ok-1', lastmod: '2026-01-02', changefreq: 'daily', priority: 0.8 },
    ]);
    expect(again.body).toMatchObject({ upserted: 1, changed: 0 });
    const tooMany = await a.put(
      `/v1/sites/${siteA}/urls`,
      Array.from({ length: 10_001 }, (_, i) => ({ loc: `https://a.example.com/${i}` })),
    );
    expect(tooMany.status).toBe(413);
  });

  it('deletes a site with its URLs and pending alternates, and nothing of another site', async () => {
    const entry = (host: string, n: number) => ({
      loc: `https://${host}/p${n}`,
      alternates: [
        { hreflang: 'de', href: `https://${host}/de/p${n}` },
        { hreflang: 'x-default', href: `https://${host}/p${n}` },
      ],
    });
    const doomed = (await a.post('/v1/sites', { hostname: 'doomed.example.com' })).body.id;
    const kept = (await a.post('/v1/sites', { hostname: 'kept.example.com' })).body.id;
    for (const [id, host] of [
      [doomed, 'doomed.example.com'],
      [kept, 'kept.example.com'],
    ] as const) {
      expect((await a.put(`/v1/sites/${id}/urls`, [entry(host, 1), entry(host, 2)])).status).toBe(200);
    }
    const db = new Client({ connectionString: platform.db.url });
    await db.connect();
    const rows = async (siteId: string) =>
      (
        await db.query(
          `SELECT (SELECT count(*) FROM urls WHERE site_id = $1)::int AS urls, (SELECT count(*) FROM pending_alternates WHERE site_id = $1)::int AS pending`,
          [siteId],
        )
      ).rows[0];
    try {
      // The German pages are named but not stored: their links wait for them.
      expect(await rows(doomed)).toEqual({ urls: 2, pending: 2 });
      expect((await a.delete(`/v1/sites/${doomed}`)).status).toBe(204);
      expect((await a.get(`/v1/sites/${doomed}`)).status).toBe(404);
      expect(await rows(doomed)).toEqual({ urls: 0, pending: 0 });
      expect(await rows(kept)).toEqual({ urls: 2, pending: 2 });
    } finally {
      await db.end();
    }
  });

  it('answers 404 at the public server for an unknown host', async () => {
    const res = await fetchFile(platform.publicUrl, 'nobody.example.net', 'sitemap.xml');
    expect(res.status).toBe(404);
    expect(res.xml).not.toContain('a.example.com');
  });
});
