// Shard placement: which shard each written URL goes to, what that changes in every shard it
// touches, and splitting a shard an update grew past its limits. New URLs fill the last shard of
// their section (`planNewUrls`); a URL keeps its shard for life unless it changes section. The
// decisions are pure (`leavingDeltas`, `placeWrites`); ShardPlacement runs them against the
// shards repository.
import type { PoolClient } from 'pg';
import type { ShardDelta, ShardPlacementRepository } from '@sitemaps/data';
import { planNewUrls, siteShardLimits, type ShardLimits, type ShardPlan, type ShardSizes } from '@sitemaps/domain';

/** What shard placement needs of any write. */
export interface PlacedWrite {
  id: string | null;
  hash: Buffer;
  section: string;
  /** Its shard: kept from the stored row, or set by `placeWrites`. */
  shardId: string | null;
  fragmentSize: number;
  /** Needs a shard from the planner (new, revived, or moved to another section). */
  needsShard: boolean;
  /** The shard it leaves and the bytes it held there, when it had one. */
  previous: { shardId: string; size: number; leaves: boolean } | null;
}

/** Per shard, what the writes change in the shards they already had: a URL leaves, or its size changes. */
export function leavingDeltas(writes: readonly PlacedWrite[]): Map<string, ShardDelta> {
  const deltas = new Map<string, ShardDelta>();
  for (const write of writes) {
    if (!write.previous) continue;
    if (write.previous.leaves) addDelta(deltas, write.previous.shardId, -1, -write.previous.size);
    else addDelta(deltas, write.previous.shardId, 0, write.fragmentSize - write.previous.size);
  }
  return deltas;
}

/**
 * Gives each of `placing` its shard from `plan` (made for them, in order; every shard has its id
 * by now) and adds what they bring to `deltas`.
 */
export function placeWrites(placing: readonly PlacedWrite[], plan: ShardPlan, deltas: Map<string, ShardDelta>): void {
  // One id string and one delta per shard, not per URL: a batch is thousands of URLs in a few shards.
  const ids = plan.shards.map((shard) => String(shard.id));
  const added = plan.shards.map(() => ({ count: 0, bytes: 0 }));
  placing.forEach((write, position) => {
    const index = plan.assignments[position] as number;
    write.shardId = ids[index] as string;
    const delta = added[index] as ShardDelta;
    delta.count += 1;
    delta.bytes += write.fragmentSize;
  });
  added.forEach((delta, index) => {
    if (delta.count > 0) addDelta(deltas, ids[index] as string, delta.count, delta.bytes);
  });
}

export class ShardPlacement {
  constructor(
    private readonly limits: ShardLimits,
    private readonly shards: ShardPlacementRepository,
  ) {}

  /**
   * Gives every write that needs one a shard (creating shards as needed), filling shards up to
   * the site's `sizes`; returns the per-shard changes.
   */
  async place(
    db: PoolClient,
    siteId: string,
    writes: readonly PlacedWrite[],
    sizes?: ShardSizes,
  ): Promise<Map<string, ShardDelta>> {
    const deltas = leavingDeltas(writes);
    const placing = writes.filter((write) => write.needsShard);
    if (placing.length === 0) return deltas;
    const sections = [...new Set(placing.map((write) => write.section))];
    const last = await this.shards.lastOfSections(db, siteId, sections);
    const plan = planNewUrls(
      last,
      placing.map((write) => ({ section: write.section, size: write.fragmentSize })),
      siteShardLimits(sizes, this.limits),
    );
    const created = plan.shards.filter((shard) => shard.id === null);
    if (created.length > 0) {
      const ids = await this.shards.create(db, siteId, created);
      for (const shard of created) shard.id = ids.get(`${shard.section}/${shard.ordinal}`) ?? null;
    }
    placeWrites(placing, plan, deltas);
    return deltas;
  }

  /** Counts, sizes and the dirty mark of every shard the write touched. */
  applyDeltas(db: PoolClient, deltas: ReadonlyMap<string, ShardDelta>): Promise<void> {
    return this.shards.applyDeltas(db, deltas);
  }

  /**
   * New URLs only go where there is room, but an updated URL can grow its shard past 50 MiB.
   * Such a shard keeps its head (and its file name) and its tail moves to a new last shard of
   * the section; both are dirty. Repeats until every part fits.
   */
  async splitOversized(db: PoolClient, siteId: string, shardIds: string[]): Promise<void> {
    let pending = shardIds;
    while (pending.length > 0) {
      const oversized = await this.shards.oversized(db, pending, this.limits);
      pending = [];
      for (const shard of oversized) {
        const tail = await this.shards.splitTail(db, { siteId, ...shard }, this.limits);
        if (tail) pending.push(tail);
      }
    }
  }
}

function addDelta(deltas: Map<string, ShardDelta>, shardId: string, count: number, bytes: number): void {
  const delta = deltas.get(shardId) ?? { count: 0, bytes: 0 };
  delta.count += count;
  delta.bytes += bytes;
  deltas.set(shardId, delta);
}
