// The sitemap.stale sweep's query and decision against the real Postgres: which sites it watches,
// the reads and notices it loads, and that a notice stops a shard version from being found again.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { staleShards, type CrawlFetchRow, type Crawler, type ManifestFiles } from '@sitemaps/domain';
import { insertSite, useTestPool } from '@sitemaps/testing';
import { CrawlRepository } from './crawl.repository';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const shard = (modifiedAt: Date) => ({
  sha256: 'b'.repeat(64),
  kind: 'shard' as const,
  byteSize: 100,
  gzipSize: 60,
  urlCount: 2,
  lastmod: null,
  modifiedAt: modifiedAt.toISOString(),
});

describe('CrawlRepository stale watches', () => {
  const test = useTestPool();

  async function publishedSite(staleAfterDays: number | null, files: ManifestFiles): Promise<string> {
    const site = await insertSite(test.pool);
    await test.pool.query('UPDATE sites SET stale_after_days = $2 WHERE id = $1', [site.id, staleAfterDays]);
    await test.pool.query(
      `INSERT INTO manifests (site_id, version, build_id, files, published_at) VALUES ($1, 1, $2, $3, now())`,
      [site.id, randomUUID(), JSON.stringify(files)],
    );
    return site.id;
  }

  it('loads the watched sites with their last verified reads, and a notice stops a version from being found again', async () => {
    const crawls = new CrawlRepository(test.pool);
    const files: ManifestFiles = {
      'sitemap.xml': { ...shard(daysAgo(10)), kind: 'index' },
      'sitemap-1.xml.gz': shard(daysAgo(10)),
      'sitemap-2.xml.gz': shard(daysAgo(10)),
      'sitemap-3.xml.gz': shard(daysAgo(10)),
    };
    const watched = await publishedSite(7, files);
    await publishedSite(null, files);
    // Never published: nothing to watch.
    const unpublished = await insertSite(test.pool);
    await test.pool.query('UPDATE sites SET stale_after_days = 1 WHERE id = $1', [unpublished.id]);

    await crawls.record([
      // Googlebot read shard 1 before its change, Bingbot after it: read since the change.
      read(watched, 'sitemap-1.xml.gz', 'googlebot', daysAgo(12)),
      read(watched, 'sitemap-1.xml.gz', 'bingbot', daysAgo(2)),
      // Shard 2 read only before the change, and by an unverified claimant after it.
      read(watched, 'sitemap-2.xml.gz', 'googlebot', daysAgo(11)),
      { ...read(watched, 'sitemap-2.xml.gz', 'googlebot', daysAgo(1)), verified: false },
    ]);

    const [watch, ...others] = await crawls.staleWatches(null, 10);
    expect(others).toEqual([]);
    expect(watch).toMatchObject({ siteId: watched, staleAfterDays: 7, files, notices: [] });
    expect(watch!.reads.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'sitemap-1.xml.gz', lastAt: daysAgo(2) },
      { path: 'sitemap-2.xml.gz', lastAt: daysAgo(11) },
    ]);
    const stale = staleShards({ ...watch!, now: NOW });
    expect(stale).toEqual([
      { path: 'sitemap-2.xml.gz', modifiedAt: daysAgo(10), lastReadAt: daysAgo(11) },
      { path: 'sitemap-3.xml.gz', modifiedAt: daysAgo(10), lastReadAt: null },
    ]);

    for (const shard of stale) await crawls.markStaleNotified(watched, shard);
    // A notice never goes back to an older version.
    await crawls.markStaleNotified(watched, { path: 'sitemap-3.xml.gz', modifiedAt: daysAgo(30) });
    const [again] = await crawls.staleWatches(null, 10);
    expect(again!.notices.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'sitemap-2.xml.gz', modifiedAt: daysAgo(10) },
      { path: 'sitemap-3.xml.gz', modifiedAt: daysAgo(10) },
    ]);
    expect(staleShards({ ...again!, now: NOW })).toEqual([]);
    // Pages after the last site are empty.
    expect(await crawls.staleWatches(watched, 10)).toEqual([]);
  });

  it('keeps the last reads of published files past the retention, and forgets those of files gone', async () => {
    const crawls = new CrawlRepository(test.pool);
    const siteId = await publishedSite(7, { 'sitemap-1.xml.gz': shard(daysAgo(200)) });
    await crawls.record([
      read(siteId, 'sitemap-1.xml.gz', 'googlebot', daysAgo(150)),
      read(siteId, 'sitemap-9.xml.gz', 'googlebot', daysAgo(150)),
    ]);
    await crawls.markStaleNotified(siteId, { path: 'sitemap-9.xml.gz', modifiedAt: daysAgo(300) });
    await crawls.markStaleNotified(siteId, { path: 'sitemap-1.xml.gz', modifiedAt: daysAgo(300) });
    await test.pool.query('UPDATE stale_shard_notices SET notified_at = $2 WHERE site_id = $1', [siteId, daysAgo(150)]);

    await crawls.deleteBefore(daysAgo(90));
    expect((await crawls.reads(siteId)).map((r) => r.path)).toEqual(['sitemap-1.xml.gz']);
    const [watch] = (await crawls.staleWatches(null, 10)).filter((w) => w.siteId === siteId);
    expect(watch!.notices).toEqual([{ path: 'sitemap-1.xml.gz', modifiedAt: daysAgo(300) }]);
    // Read after its change, long ago: not stale.
    expect(staleShards({ ...watch!, now: NOW })).toEqual([]);
  });
});

function read(siteId: string, path: string, crawler: Crawler, at: Date): CrawlFetchRow {
  const hour = new Date(at);
  hour.setUTCMinutes(0, 0, 0);
  return { siteId, hour, path, crawler, verified: true, status: 200, fetches: 1, bytes: 100, firstAt: at, lastAt: at };
}
