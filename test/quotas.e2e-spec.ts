// Tenant quotas under concurrency, through the real API: tenants.max_sites and tenants.max_urls
// hold exactly when many requests race, on every path that adds (REST, GraphQL, upload import),
// and every path refuses with the same codes. Each check counts what is stored afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api-client';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';

let platform: Platform;
let admin: ReturnType<typeof apiClient>;

beforeAll(async () => {
  platform = await startPlatform({}, { worker: false });
  admin = apiClient(platform.apiUrl, ADMIN_KEY);
}, 120_000);

afterAll(async () => {
  await platform?.close();
});

async function tenant(name: string, quotas: { maxSites?: number; maxUrls?: number }) {
  const created = await admin.post('/v1/tenants', { name, ...quotas });
  expect(created.status).toBe(201);
  return apiClient(platform.apiUrl, created.body.apiKey as string);
}

/** Every live URL of a site, read page by page through the API. */
async function liveUrls(client: ReturnType<typeof apiClient>, siteId: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page: { status: number; body: { items: unknown[]; nextCursor: string | null } } = await client.get(
      `/v1/sites/${siteId}/urls?limit=1000${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(page.status).toBe(200);
    count += page.body.items.length;
    cursor = page.body.nextCursor;
  } while (cursor);
  return count;
}

function upload(client: ReturnType<typeof apiClient>, siteId: string, lines: string[]) {
  return client.call('POST', `/v1/sites/${siteId}/urls/import`, undefined, {
    raw: lines.join('\n'),
    headers: { 'content-type': 'application/x-ndjson' },
  });
}

describe('tenant quotas under concurrency', () => {
  it('maxSites 2: of 30 concurrent creates exactly 2 succeed, the others get 403 QUOTA_SITES', async () => {
    const client = await tenant('Two sites', { maxSites: 2 });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => client.post('/v1/sites', { hostname: `race-${i}.sites.example.com` })),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses.filter((status) => status === 403)).toHaveLength(28);
    for (const refused of results.filter((result) => result.status === 403))
      expect(refused.body.error.code).toBe('QUOTA_SITES');
    expect((await client.get('/v1/sites')).body.items).toHaveLength(2);
  }, 120_000);

  it('maxUrls 1,000: of 10 concurrent PUTs of 1,000 new URLs over two sites exactly one is stored', async () => {
    const client = await tenant('Thousand URLs', { maxUrls: 1_000 });
    const sites = [
      (await client.post('/v1/sites', { hostname: 'race-a.urls.example.com' })).body.id as string,
      (await client.post('/v1/sites', { hostname: 'race-b.urls.example.com' })).body.id as string,
    ];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, put) => {
        const site = put % 2;
        const host = site === 0 ? 'race-a.urls.example.com' : 'race-b.urls.example.com';
        const batch = Array.from({ length: 1_000 }, (_, i) => ({ loc: `https://${host}/put-${put}/${i}` }));
        return client.put(`/v1/sites/${sites[site]}/urls`, batch);
      }),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 403)).toHaveLength(9);
    for (const refused of results.filter((result) => result.status === 403)) {
      expect(refused.body.error).toMatchObject({
        code: 'QUOTA_URLS',
        details: expect.arrayContaining([expect.objectContaining({ code: 'QUOTA_URLS', field: 'loc' })]),
      });
      expect(refused.body.error.details).toHaveLength(1_000);
    }
    expect((await liveUrls(client, sites[0] as string)) + (await liveUrls(client, sites[1] as string))).toBe(1_000);

    // Deleting makes room again, exactly as much as was deleted.
    const stored = results.findIndex((result) => result.status === 200);
    const storedSite = sites[stored % 2] as string;
    const storedHost = stored % 2 === 0 ? 'race-a.urls.example.com' : 'race-b.urls.example.com';
    const gone = await client.delete(`/v1/sites/${storedSite}/urls`, {
      locs: [0, 1, 2].map((i) => `https://${storedHost}/put-${stored}/${i}`),
    });
    expect(gone.body.deleted).toBe(3);
    const refill = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        client.put(`/v1/sites/${sites[0]}/urls`, [{ loc: `https://race-a.urls.example.com/refill/${i}` }]),
      ),
    );
    expect(refill.filter((result) => result.status === 200)).toHaveLength(3);
    expect((await liveUrls(client, sites[0] as string)) + (await liveUrls(client, sites[1] as string))).toBe(1_000);
  }, 180_000);

  it('maxUrls 1,000: concurrent imports and PUTs share one quota; imports reject the lines past it with QUOTA_URLS', async () => {
    const client = await tenant('Mixed writers', { maxUrls: 1_000 });
    const hosts = ['mix-a.urls.example.com', 'mix-b.urls.example.com', 'mix-c.urls.example.com'];
    const sites: string[] = [];
    for (const hostname of hosts) sites.push((await client.post('/v1/sites', { hostname })).body.id as string);
    const lines = (host: string, prefix: string) =>
      Array.from({ length: 400 }, (_, i) => JSON.stringify({ loc: `https://${host}/${prefix}/${i}` }));

    const [importA, importB, putC, putA] = await Promise.all([
      upload(client, sites[0] as string, lines(hosts[0] as string, 'import')),
      upload(client, sites[1] as string, lines(hosts[1] as string, 'import')),
      client.put(
        `/v1/sites/${sites[2]}/urls`,
        Array.from({ length: 400 }, (_, i) => ({ loc: `https://${hosts[2]}/put/${i}` })),
      ),
      client.put(
        `/v1/sites/${sites[0]}/urls`,
        Array.from({ length: 400 }, (_, i) => ({ loc: `https://${hosts[0]}/put/${i}` })),
      ),
    ]);
    expect(importA.status).toBe(201);
    expect(importB.status).toBe(201);
    for (const put of [putC, putA]) {
      expect([200, 403]).toContain(put.status);
      if (put.status === 403) expect(put.body.error.code).toBe('QUOTA_URLS');
    }
    const stored =
      [importA, importB].reduce((sum, result) => sum + (result.body.stored as number), 0) +
      [putC, putA].reduce((sum, result) => sum + (result.status === 200 ? 400 : 0), 0);
    let live = 0;
    for (const site of sites) live += await liveUrls(client, site);
    expect(live).toBe(stored);
    expect(live).toBe(1_000);

    // Rejected lines carry the same code and field as a refused PUT's details.
    for (const [index, result] of [importA, importB].entries()) {
      if (result.body.rejected === 0) continue;
      const rejections = await client.get(
        `/v1/sites/${sites[index]}/imports/${result.body.importId}/rejections?limit=1000`,
      );
      expect(rejections.body.items.length).toBe(result.body.rejected);
      for (const rejection of rejections.body.items)
        expect(rejection).toMatchObject({ code: 'QUOTA_URLS', field: 'loc' });
    }
  }, 180_000);
});
