// Scheduled work on shards: articles that aged out of the two-day news window leave the news
// sitemaps, and under-filled neighbouring shards are merged. Sites that changed get a build.
import { Logger } from '@nestjs/common';
import type { ShardRepository } from '@sitemaps/data';
import { MAX_URLS_PER_FILE } from '@sitemaps/domain';
import type { UrlIngestService } from '@sitemaps/ingest';
import type { BuildProducer } from '@sitemaps/jobs';
import type { ShardCompactor } from './shard.compactor';

export class ShardUpkeep {
  private readonly logger = new Logger('maintenance');

  constructor(
    private readonly deps: {
      ingest: UrlIngestService;
      shards: ShardRepository;
      compactor: ShardCompactor;
      builds: BuildProducer;
    },
  ) {}

  async refreshNews(now = new Date()): Promise<number> {
    const { ingest } = this.deps;
    const sites = await ingest.sitesWithExpiredNews(now);
    let changed = 0;
    for (const site of sites) changed += await ingest.expireNews(site, now);
    if (changed) this.logger.log(`moved ${changed} aged-out articles out of news sitemaps`);
    return changed;
  }

  /** Merges under-filled neighbouring shards; sites that changed get a (coalesced) build. */
  async compactShards(): Promise<number> {
    const sites = await this.deps.shards.sitesWithShardsUnder(MAX_URLS_PER_FILE / 2);
    let merged = 0;
    for (const siteId of sites) {
      const count = await this.deps.compactor.compact(siteId);
      if (count > 0) await this.deps.builds.afterChange(siteId);
      merged += count;
    }
    if (merged) this.logger.log(`compacted ${merged} shards`);
    return merged;
  }
}
