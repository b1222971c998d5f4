// On a schedule (CRAWL_EVENTS_EVERY_MS): a verified crawler's first read of a site's index becomes
// a sitemap.first_crawl event (the public server only counts; it emits nothing), and crawl counts
// past CRAWL_RETENTION_DAYS are deleted. Idempotent: a row is marked once its event is emitted,
// and the event's id comes from the site and crawler, so an emit repeated after a crash delivers once.
import type { CrawlRepository } from '@sitemaps/data';
import { firstCrawlEvent, INDEX_PATH } from '@sitemaps/domain';
import type { WebhookProducer } from '@sitemaps/jobs';

const BATCH = 500;
const DAY_MS = 86_400_000;

export interface CrawlEventsDeps {
  crawls: CrawlRepository;
  webhooks: WebhookProducer;
  retentionDays: number;
}

export class CrawlEvents {
  constructor(private readonly deps: CrawlEventsDeps) {}

  async run(): Promise<{ firstCrawls: number; deleted: { fetches: number; reads: number } }> {
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
}
