// Merges a site's under-filled neighbouring shards (the plan: libs/domain's planCompaction) under
// the site's URL write lock (the shards repository).
import type { ShardRepository } from '@sitemaps/data';
import { DEFAULT_SHARD_LIMITS, planCompaction, siteShardLimits, type ShardLimits } from '@sitemaps/domain';

export class ShardCompactor {
  constructor(
    private readonly shards: ShardRepository,
    private readonly limits: ShardLimits = DEFAULT_SHARD_LIMITS,
  ) {}

  /** Returns how many shards were emptied into a neighbour; no merge makes a file past the site's shard size. */
  compact(siteId: string): Promise<number> {
    return this.shards.compact(siteId, (shards, sizes) => planCompaction(shards, siteShardLimits(sizes, this.limits)));
  }
}
