// The pipeline scenario, run by more than one test file: on one Redis (pipeline.e2e-spec.ts) and
// on a Redis Cluster (redis-cluster.e2e-spec.ts). Incremental builds through the real workers:
// coalesced change builds, sections, dirty tracking (one change, one shard), full rebuilds, schedules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '@sitemaps/testing';
import { crawl, locsOf, validateSitemaps } from './crawler';
import type { Platform } from './platform';
import { createTenantWithSite, type ApiClient } from './tenant';

const HOST = 'news.example.org';
const url = (path: string) => `https://${HOST}${path}`;

/** Registers the pipeline's tests; `start` boots the platform with the given overrides. */
export function describePipeline(title: string, start: (overrides: Record<string, string>) => Promise<Platform>): void {
  describe(title, () => {
    let platform: Platform;
    let api: ApiClient;
    let siteId: string;

    const builds = async () =>
      (await api.get(`/v1/sites/${siteId}/builds?limit=100`)).body.items as {
        id: string;
        status: string;
        trigger: string;
        shardsRendered: number;
        shardsSkipped: number;
      }[];
    const waitForBuilds = (count: number) =>
      waitUntil(`${count} finished builds`, async (seen) => {
        const items = seen(await builds());
        return items.length >= count && items.every((b) => b.status === 'published' || b.status === 'failed')
          ? items
          : undefined;
      });

    beforeAll(async () => {
      // A quiet period long enough that a burst of requests always lands inside one window.
      platform = await start({ BUILD_QUIET_MS: '1500' });
      ({ api, siteId } = await createTenantWithSite(platform.apiUrl, 'News', { hostname: HOST }));
    });
    afterAll(() => platform?.close());

    it('coalesces a burst of changes into one build and writes one file set per section', async () => {
      const sections = ['products', 'blog', ''];
      for (let burst = 0; burst < 6; burst += 1) {
        const entries = Array.from({ length: 50 }, (_, i) => {
          const section = sections[(burst * 50 + i) % 3] as string;
          return { loc: url(`/${section || 'page'}/${burst}-${i}`), ...(section ? { section } : {}) };
        });
        expect((await api.put(`/v1/sites/${siteId}/urls`, entries)).body.errors).toEqual([]);
      }
      const done = await waitForBuilds(1);
      expect(done).toHaveLength(1);
      expect(done[0]).toMatchObject({ status: 'published', trigger: 'change', shardsRendered: 3 });

      const { index, shards } = await crawl(platform.publicUrl, HOST);
      expect(locsOf(index.xml)).toEqual([
        url('/sitemap-1.xml.gz'),
        url('/sitemap-blog-1.xml.gz'),
        url('/sitemap-products-1.xml.gz'),
      ]);
      expect(shards.map((s) => locsOf(s.xml).length)).toEqual([100, 100, 100]);
      expect(
        (
          await validateSitemaps([
            { name: 'index.xml', data: index.xml },
            ...shards.map((s) => ({ name: s.path, data: s.body })),
          ])
        ).status,
      ).toBe(0);
    });

    it('re-renders only the shard a change touches', async () => {
      const before = await crawl(platform.publicUrl, HOST);
      await api.put(`/v1/sites/${siteId}/urls`, [{ loc: url('/blog/0-1'), section: 'blog', priority: 0.9 }]);
      const done = await waitForBuilds(2);
      expect(done[0]).toMatchObject({ status: 'published', shardsRendered: 1, shardsSkipped: 2 });
      const after = await crawl(platform.publicUrl, HOST);
      expect(after.shards.map((s) => s.etag === before.shards[after.shards.indexOf(s)]?.etag)).toEqual([
        true,
        false,
        true,
      ]);
      expect(after.shards[1]?.xml).toContain(`<loc>${url('/blog/0-1')}</loc><lastmod>`);
      expect(after.shards[1]?.xml).toMatch(
        /<loc>[^<]*\/blog\/0-1<\/loc><lastmod>[^<]+<\/lastmod><priority>0\.9<\/priority>/,
      );
    });

    it('re-renders every shard on a full build and produces the same bytes for unchanged data', async () => {
      const before = await crawl(platform.publicUrl, HOST);
      const build = await api.post(`/v1/sites/${siteId}/builds`, { full: true });
      const done = await api.waitForBuild(siteId, build.body.buildId);
      expect(done).toMatchObject({
        status: 'published',
        full: true,
        shardsRendered: 3,
        shardsSkipped: 0,
        urlCount: 300,
      });
      expect(done.timings).toMatchObject({
        readMs: expect.any(Number),
        renderMs: expect.any(Number),
        gzipMs: expect.any(Number),
        storeMs: expect.any(Number),
      });
      const after = await crawl(platform.publicUrl, HOST);
      expect(after.shards.map((s) => s.etag)).toEqual(before.shards.map((s) => s.etag));
    });

    it('keeps a scheduled full rebuild per site, editable through the API', async () => {
      const bad = await api.patch(`/v1/sites/${siteId}`, { rebuildCron: '* * * * *' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_CRON');
      const set = await api.patch(`/v1/sites/${siteId}`, { rebuildCron: '30 3 * * *' });
      expect(set.body.rebuildCron).toBe('30 3 * * *');
      const schedule = await api.get(`/v1/sites/${siteId}/schedule`);
      expect(schedule.body.rebuildCron).toBe('30 3 * * *');
      const next = new Date(schedule.body.nextRunAt);
      expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([3, 30]);
      await api.patch(`/v1/sites/${siteId}`, { rebuildCron: null });
      expect((await api.get(`/v1/sites/${siteId}/schedule`)).body).toEqual({ rebuildCron: null, nextRunAt: null });
    });

    it("publishes fresh articles as a news sitemap that validates against Google's schema", async () => {
      const publicationDate = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const news = {
        publicationName: 'News & Co',
        publicationLanguage: 'en',
        publicationDate,
        title: 'Rates <rise> & "fall"',
      };
      const res = await api.put(`/v1/sites/${siteId}/urls`, [
        { loc: url('/articles/1'), news },
        { loc: url('/articles/2'), news },
      ]);
      expect(res.body.errors).toEqual([]);
      const build = await api.post(`/v1/sites/${siteId}/builds`, {});
      expect(await api.waitForBuild(siteId, build.body.buildId)).toMatchObject({ status: 'published' });
      const { index, shards } = await crawl(platform.publicUrl, HOST);
      expect(locsOf(index.xml)).toContain(url('/sitemap-news-1.xml.gz'));
      const newsShard = shards.find((s) => s.path.endsWith('news-1.xml.gz'));
      expect(newsShard?.xml).toContain('<news:title>Rates &lt;rise&gt; &amp; &quot;fall&quot;</news:title>');
      expect((await validateSitemaps([{ name: 'news.xml', data: newsShard?.body ?? '' }])).status).toBe(0);
    });
  });
}
