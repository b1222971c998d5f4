import { Injectable } from '@nestjs/common';
import { ReadRouter } from '@sitemaps/data';
import { shardFilePath } from '@sitemaps/domain';
import { bigintKey, decodeCursor, pageOf, type Page, type PageRequest } from '../common/pagination';
import { SitesService } from '../sites/sites.service';
import type { ShardView } from './shard.schemas';

@Injectable()
export class ShardsService {
  constructor(
    private readonly sites: SitesService,
    private readonly reads: ReadRouter,
  ) {}

  /** In id order: the order the planner created them. */
  async list(tenantId: string, siteId: string, page: PageRequest): Promise<Page<ShardView>> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    const after = decodeCursor(page.after, bigintKey);
    const rows = await reader.shards.listForSite(site.id, { afterId: after, limit: page.first + 1 });
    return pageOf(
      rows,
      page.first,
      (shard) => String(shard.id),
      (shard) => ({
        id: String(shard.id),
        section: shard.section || null,
        ordinal: shard.ordinal,
        path: `/${shardFilePath(shard.section, shard.ordinal)}`,
        urlCount: shard.urlCount,
        byteSize: shard.byteSize,
        dirty: shard.dirty,
        createdAt: shard.createdAt,
      }),
    );
  }
}
