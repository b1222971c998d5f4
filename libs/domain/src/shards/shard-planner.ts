// Where new URLs go: the last shard of their section while it has room by count and bytes, else a
// new shard. Existing URLs never move here, so unchanged shards keep their files.

import { MAX_NEWS_URLS_PER_FILE, NEWS_SECTION } from '../urls/news.rules';

export const MAX_URLS_PER_FILE = 50_000;
/** 50 MiB per file, less room for the <urlset> header (namespaces) and footer. */
export const MAX_FRAGMENT_BYTES_PER_FILE = 52_428_800 - 1_024;

export interface ShardLimits {
  maxUrls: number;
  maxBytes: number;
}

export const DEFAULT_SHARD_LIMITS: ShardLimits = { maxUrls: MAX_URLS_PER_FILE, maxBytes: MAX_FRAGMENT_BYTES_PER_FILE };

/**
 * The limits of one section's shards: news sitemaps hold at most 1,000 URLs (Google News), every
 * other section the platform's limits. `limits` lowers them (tests use small shards).
 */
export function limitsForSection(section: string, limits: ShardLimits = DEFAULT_SHARD_LIMITS): ShardLimits {
  return section === NEWS_SECTION ? { ...limits, maxUrls: Math.min(limits.maxUrls, MAX_NEWS_URLS_PER_FILE) } : limits;
}

export interface ShardFill {
  /** null for a shard the plan creates. */
  id: bigint | null;
  section: string;
  ordinal: number;
  urlCount: number;
  byteSize: number;
}

export interface ShardPlan {
  /** For each incoming URL (by position), the shard it goes to, as an index into `shards`. */
  assignments: number[];
  /** The last shard of each touched section before the plan, plus every shard the plan creates. */
  shards: ShardFill[];
}

/**
 * @param lastShards the current last shard (highest ordinal) of each section, if any
 * @param incoming section and fragment size of each new URL, in order
 */
export function planNewUrls(
  lastShards: ShardFill[],
  incoming: { section: string; size: number }[],
  limitsOf: ShardLimits | ((section: string) => ShardLimits) = DEFAULT_SHARD_LIMITS,
): ShardPlan {
  const limitsFor = typeof limitsOf === 'function' ? limitsOf : () => limitsOf;
  const shards: ShardFill[] = lastShards.map((shard) => ({ ...shard }));
  const openShard = new Map<string, number>();
  shards.forEach((shard, index) => openShard.set(shard.section, index));
  const assignments = incoming.map(({ section, size }) => {
    let index = openShard.get(section);
    const current = index === undefined ? undefined : shards[index];
    const limits = limitsFor(section);
    if (
      !current ||
      current.urlCount + 1 > limits.maxUrls ||
      (current.urlCount > 0 && current.byteSize + size > limits.maxBytes)
    ) {
      shards.push({ id: null, section, ordinal: (current?.ordinal ?? 0) + 1, urlCount: 0, byteSize: 0 });
      index = shards.length - 1;
      openShard.set(section, index);
    }
    const target = shards[index as number] as ShardFill;
    target.urlCount += 1;
    target.byteSize += size;
    return index as number;
  });
  return { assignments, shards };
}
