// The foundation's acceptance path: REST in, a crawler's view out, through real servers and workers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import robotsParser from 'robots-parser';
import { apiClient } from './support/api-client';
import { crawl, fetchFile, locsOf, validateSitemaps } from './support/crawler';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';

const HOST = 'shop.example.com';
const TOTAL = 120_000;
const BATCH = 10_000;

function entry(i: number) {
  // Every tenth page has a German translation, linked both ways by one cluster.
  const loc = `https://${HOST}/p/${i}`;
  if (i % 10 !== 0) return { loc, changefreq: 'weekly' as const };
  const de = `https://${HOST}/de/p/${i}`;
  return {
    loc,
    alternates: [
      { hreflang: 'en', href: loc },
      { hreflang: 'de', href: de },
      { hreflang: 'x-default', href: loc },
    ],
  };
}

describe('foundation: REST to crawler', () => {
  let platform: Platform;
  let tenant: ReturnType<typeof apiClient>;
  let siteId: string;
  const expected = new Set<string>();

  beforeAll(async () => {
    platform = await startPlatform();
    const admin = apiClient(platform.apiUrl, ADMIN_KEY);
    const created = await admin.post('/v1/tenants', { name: 'Shop Inc' });
    expect(created.status).toBe(201);
    tenant = apiClient(platform.apiUrl, created.body.apiKey);
    const site = await tenant.post('/v1/sites', { hostname: HOST });
    expect(site.status).toBe(201);
    siteId = site.body.id;
  });
  afterAll(() => platform?.close());

  it('publishes 120,000 URLs as an index of 3 valid shards', async () => {
    for (let start = 0; start < TOTAL; start += BATCH) {
      const entries = Array.from({ length: BATCH }, (_, k) => entry(start + k));
      const res = await tenant.put(`/v1/sites/${siteId}/urls`, entries);
      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual([]);
      expect(res.body.upserted).toBe(BATCH);
      for (const e of entries) expected.add(e.loc);
    }
    const build = await tenant.post(`/v1/sites/${siteId}/builds`, {});
    expect(build.status).toBe(202);
    const done = await tenant.waitForBuild(siteId, build.body.buildId);
    expect(done).toMatchObject({ status: 'published', urlCount: TOTAL });

    const { index, shards } = await crawl(platform.publicUrl, HOST);
    expect(index.status).toBe(200);
    expect(shards).toHaveLength(3);
    const seen = new Set<string>();
    for (const shard of shards) {
      expect(shard.status).toBe(200);
      const locs = locsOf(shard.xml);
      expect(locs.length).toBeLessThanOrEqual(50_000);
      for (const loc of locs) {
        expect(seen.has(loc)).toBe(false);
        seen.add(loc);
      }
    }
    expect(seen).toEqual(expected);
    const validation = await validateSitemaps([
      { name: 'sitemap.xml', data: index.xml },
      ...shards.map((s) => ({ name: s.path, data: s.body })),
    ]);
    expect(validation.output).not.toMatch(/fail|error/i);
    expect(validation.status).toBe(0);

    // The hreflang cluster is written on both sides.
    const first = shards[0]?.xml ?? '';
    expect(first).toContain(`<url><loc>https://${HOST}/p/0</loc>`);
    expect(first).toMatch(new RegExp(`<loc>https://${HOST}/p/0</loc>.*?hreflang="de" href="https://${HOST}/de/p/0"`));
  });

  it('names the index in robots.txt', async () => {
    const robots = await fetchFile(platform.publicUrl, HOST, 'robots.txt');
    expect(robots.status).toBe(200);
    const text = robots.xml;
    expect(robotsParser(`https://${HOST}/robots.txt`, text).getSitemaps()).toEqual([`https://${HOST}/sitemap.xml`]);
  });

  it('removes deleted URLs on the next build and leaves every other shard untouched', async () => {
    const before = await crawl(platform.publicUrl, HOST);
    const gone = Array.from({ length: 10 }, (_, k) => `https://${HOST}/p/${k * 7 + 1}`);
    const res = await tenant.delete(`/v1/sites/${siteId}/urls`, { locs: gone });
    expect(res.body).toEqual({ deleted: 10, notFound: [] });
    const build = await tenant.post(`/v1/sites/${siteId}/builds`, {});
    const done = await tenant.waitForBuild(siteId, build.body.buildId);
    expect(done).toMatchObject({ status: 'published', shardsRendered: 1, urlCount: TOTAL - 10 });

    const after = await crawl(platform.publicUrl, HOST);
    const remaining = new Set(after.shards.flatMap((shard) => locsOf(shard.xml)));
    for (const loc of gone) expected.delete(loc);
    expect(remaining).toEqual(expected);
    // Only the shard that held the deleted URLs changed; the others keep their bytes and ETag.
    expect(after.shards[0]?.etag).not.toBe(before.shards[0]?.etag);
    expect(after.shards.slice(1).map((s) => s.etag)).toEqual(before.shards.slice(1).map((s) => s.etag));
    expect(after.shards[1]?.body.equals(before.shards[1]?.body ?? Buffer.alloc(0))).toBe(true);
    expect((await validateSitemaps(after.shards.map((s) => ({ name: s.path, data: s.body })))).status).toBe(0);
  });

  it('keeps other sites and unknown hosts apart at the public server', async () => {
    const unknown = await fetchFile(platform.publicUrl, 'unknown.example.org', 'sitemap.xml');
    expect(unknown.status).toBe(404);
    expect(unknown.xml).not.toContain(HOST);
  });
});
