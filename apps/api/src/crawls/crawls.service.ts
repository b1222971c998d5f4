import { Injectable } from '@nestjs/common';
import { CrawlRepository, ReadRouter } from '@sitemaps/data';
import { crawledFiles, INDEX_PATH, type Crawler } from '@sitemaps/domain';
import { SitesService } from '../sites/sites.service';
import type { CrawlInsightView, CrawlTotalsView } from './crawl.schemas';

const DAY_MS = 86_400_000;

@Injectable()
export class CrawlsService {
  constructor(
    private readonly sites: SitesService,
    private readonly reads: ReadRouter,
    private readonly crawls: CrawlRepository,
  ) {}

  /** The operator's view: every site's fetches per day and crawler. */
  async totals(days: number): Promise<CrawlTotalsView> {
    return { days: (await this.crawls.totals(sinceDays(days))) as CrawlTotalsView['days'] };
  }

  /** What search engines read of the site, and when (the public server's counts, a few seconds late). */
  async insight(tenantId: string, siteId: string, days: number): Promise<CrawlInsightView> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    const since = sinceDays(days);
    const [manifest, reads, perDay, errors] = await Promise.all([
      reader.manifests.current(site.id),
      reader.crawls.reads(site.id),
      reader.crawls.days(site.id, since),
      reader.crawls.errors(site.id, since),
    ]);
    const { crawlers, files } = crawledFiles(manifest?.files ?? {}, reads);
    const changedAt = manifest?.files[INDEX_PATH]?.modifiedAt;
    let lastChange: CrawlInsightView['lastChange'] = null;
    if (changedAt) {
      const at = new Date(changedAt);
      const first = await reader.crawls.firstIndexReadSince(site.id, at);
      lastChange = {
        at,
        firstVerifiedReadAt: first?.at ?? null,
        crawler: (first?.crawler as Crawler | undefined) ?? null,
        delaySeconds: first ? Math.max(0, (first.at.getTime() - at.getTime()) / 1000) : null,
      };
    }
    return {
      siteId: site.id,
      crawlers: crawlers as CrawlInsightView['crawlers'],
      files: files as CrawlInsightView['files'],
      lastChange,
      days: perDay as CrawlInsightView['days'],
      errors: errors as CrawlInsightView['errors'],
    };
  }
}

/** The start of the UTC day `days - 1` days before today. */
function sinceDays(days: number): Date {
  return new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS);
}
