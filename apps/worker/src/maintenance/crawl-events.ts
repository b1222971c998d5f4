// On a schedule (CRAWL_EVENTS_EVERY_MS): a verified crawler's first read of a site's index becomes
// a sitemap.first_crawl event (the public server only counts; it emits nothing), and crawl counts
// past CRAWL_RETENTION_DAYS are deleted. Idempotent: a row is marked once its event is emitted,
// and the event's id comes from the site and crawler, so an emit repeated after a crash delivers once.
//
// On its own schedule (CRAWL_STALE_EVERY_MS): for each site with `staleAfterDays`, the shards no
// verified crawler has read since their bytes changed that many days ago become sitemap.stale
// events. The decision is libs/domain's `staleShards`; a notice row per shard version makes a later
// run skip what was sent, and the event id names the version, so a repeated emit delivers once.
import type { CrawlRepository } from '@sitemaps/data';
import { firstCrawlEvent, INDEX_PATH, staleShardEvent, staleShards } from '@sitemaps/domain';
import type { WebhookProducer } from '@sitemaps/jobs';

const BATCH = 500;
const STALE_BATCH = 200;
const DAY_MS = 86_400_000;

export interface CrawlEventsDeps {
  crawls: CrawlRepository;
  webhooks: WebhookProducer;
  retentionDays: number;
}

export class CrawlEvents {
  constructor(private readonly deps: CrawlEventsDeps) {}

  async run(): Promise<{ firstCrawls: number; deleted: { fetches: number; reads: number; notices: number } }> {
    const { crawls, webhooks, retentionDays } = this.deps;
    let firstCrawls = 0;
    for (;;) {
      const pending = await crawls.pendingFirstCrawls(BATCH);
      for (const crawl of pending) {
        await webhooks.emit(
          { siteId: crawl.siteId },
          firstCrawlEvent({ siteId: crawl.siteId, crawler: crawl.crawler, path: INDEX_PATH, readAt: crawl.firstAt }),
        );
        await crawls.markFirstCrawlNotified(crawl);
        firstCrawls += 1;
      }
      if (pending.length < BATCH) break;
    }
    const deleted = await crawls.deleteBefore(new Date(Date.now() - retentionDays * DAY_MS));
    return { firstCrawls, deleted };
  }

  /** Emits sitemap.stale for every shard version unread past its site's staleAfterDays, once. */
  async announceStale(): Promise<{ sites: number; stale: number }> {
    const { crawls, webhooks } = this.deps;
    const now = new Date();
    let after: string | null = null;
    let sites = 0;
    let stale = 0;
    for (;;) {
      const watches = await crawls.staleWatches(after, STALE_BATCH);
      for (const watch of watches) {
        for (const shard of staleShards({ ...watch, now })) {
          await webhooks.emit(
            { siteId: watch.siteId },
            staleShardEvent(watch.siteId, { ...shard, staleAfterDays: watch.staleAfterDays }),
          );
          await crawls.markStaleNotified(watch.siteId, shard);
          stale += 1;
        }
      }
      sites += watches.length;
      const last = watches.at(-1);
      if (watches.length < STALE_BATCH || !last) break;
      after = last.siteId;
    }
    return { sites, stale };
  }
}
