// On a schedule (CRAWL_STALE_EVERY_MS): for each site with `staleAfterDays`, the shards no verified
// crawler has read since their bytes changed that many days ago become sitemap.stale events. The
// decision is libs/domain's `staleShards`; a notice row per shard version makes a later run skip
// what was sent, and the event id names the version, so an emit repeated after a crash delivers once.
import type { CrawlRepository } from '@sitemaps/data';
import { staleShardEvent, staleShards } from '@sitemaps/domain';
import type { WebhookProducer } from '@sitemaps/jobs';

const BATCH = 200;

export interface StaleShardEventsDeps {
  crawls: CrawlRepository;
  webhooks: WebhookProducer;
  now?: () => Date;
}

export class StaleShardEvents {
  constructor(private readonly deps: StaleShardEventsDeps) {}

  async run(): Promise<{ sites: number; stale: number }> {
    const { crawls, webhooks } = this.deps;
    const now = this.deps.now?.() ?? new Date();
    let after: string | null = null;
    let sites = 0;
    let stale = 0;
    for (;;) {
      const watches = await crawls.staleWatches(after, BATCH);
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
      if (watches.length < BATCH) break;
      after = watches[watches.length - 1]!.siteId;
    }
    return { sites, stale };
  }
}
