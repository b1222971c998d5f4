// Deletions shrink shards; left alone, a site ends up with many near-empty files. Compaction
// merges neighbouring shards of a section while the result fits one file and one of the two is
// under half full. The emptied shard stays as a row with no URLs: its next render publishes no
// file, so the manifest drops it. Both shards become dirty; everything else keeps its file.
import { DEFAULT_SHARD_LIMITS, limitsForSection, type ShardLimits } from './shard-planner';

export interface ShardSize {
  id: string;
  section: string;
  ordinal: number;
  urlCount: number;
  byteSize: number;
}

/** Every URL of shard `from` moves into shard `into`: `urlCount` URLs, `byteSize` bytes. */
export interface ShardMerge {
  into: string;
  from: string;
  urlCount: number;
  byteSize: number;
}

/** The merges, in order, for a site's non-empty shards given in (section, ordinal) order. */
export function planCompaction(
  shards: readonly ShardSize[],
  limits: ShardLimits | ((section: string) => ShardLimits) = DEFAULT_SHARD_LIMITS,
): ShardMerge[] {
  const limitsOf = typeof limits === 'function' ? limits : (section: string) => limitsForSection(section, limits);
  const merges: ShardMerge[] = [];
  let target: ShardSize | undefined;
  for (const shard of shards) {
    const section = limitsOf(shard.section);
    const half = section.maxUrls / 2;
    const fits =
      target &&
      target.section === shard.section &&
      target.urlCount + shard.urlCount <= section.maxUrls &&
      target.byteSize + shard.byteSize <= section.maxBytes;
    if (target && fits && (target.urlCount < half || shard.urlCount < half)) {
      merges.push({ into: target.id, from: shard.id, urlCount: shard.urlCount, byteSize: shard.byteSize });
      target = { ...target, urlCount: target.urlCount + shard.urlCount, byteSize: target.byteSize + shard.byteSize };
    } else {
      target = shard;
    }
  }
  return merges;
}
