// How many URLs a site puts in one sitemap file (Yoast writes 1,000; next-sitemap's `sitemapSize`):
// per site, and per section on top. Only new URLs are placed by it, so changing it changes no
// file a crawler knows: shards filled under the old size keep their URLs and names, new URLs go
// to the last shard while it has room under the new size, then to new shards. News sections keep
// Google News' 1,000 at most; 50 MiB stays the byte bound of every file.
import { invalid, type ErrorDetail } from '../domain.errors';
import { RESERVED_SECTIONS, SECTION_PATTERN } from './shard-naming';
import { DEFAULT_SHARD_LIMITS, limitsForSection, MAX_URLS_PER_FILE, type ShardLimits } from './shard-planner';

export const MIN_SHARD_SIZE = 1;
export const MAX_SHARD_SIZE = MAX_URLS_PER_FILE;

export interface ShardSizes {
  /** URLs per file for the site's sections; null: the protocol's 50,000. */
  shardSize: number | null;
  /** Per section (`""` is the default section), over `shardSize`. */
  sectionShardSizes: Record<string, number>;
}

export const NO_SHARD_SIZES: ShardSizes = { shardSize: null, sectionShardSizes: {} };

const isSize = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= MIN_SHARD_SIZE && value <= MAX_SHARD_SIZE;

/** A site's sizes as sent or stored; throws INVALID_SHARD_SIZE naming the field at fault. */
export function validateShardSizes(input: { shardSize?: unknown; sectionShardSizes?: unknown }): ShardSizes {
  const details: ErrorDetail[] = [];
  const message = `a whole number of URLs, ${MIN_SHARD_SIZE}-${MAX_SHARD_SIZE.toLocaleString('en-US')}`;
  const shardSize = input.shardSize ?? null;
  if (shardSize !== null && !isSize(shardSize)) details.push({ field: 'shardSize', message });
  const sections: Record<string, number> = {};
  const raw = input.sectionShardSizes ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    details.push({ field: 'sectionShardSizes', message: 'an object: section → URLs per file' });
  } else {
    for (const [section, size] of Object.entries(raw)) {
      const field = `sectionShardSizes.${section || '""'}`;
      if (section !== '' && (!SECTION_PATTERN.test(section) || (RESERVED_SECTIONS.has(section) && section !== 'news')))
        details.push({ field, message: 'a section name: lowercase letters, digits and dashes' });
      else if (!isSize(size)) details.push({ field, message });
      else sections[section] = size;
    }
  }
  if (details.length > 0) throw invalid('INVALID_SHARD_SIZE', 'invalid shard size', details);
  return { shardSize: shardSize as number | null, sectionShardSizes: sections };
}

/** The limits of each section of a site with these sizes, below `base` (the platform's, or a test's). */
export function siteShardLimits(
  sizes: ShardSizes | undefined,
  base: ShardLimits = DEFAULT_SHARD_LIMITS,
): (section: string) => ShardLimits {
  return (section) => {
    const limits = limitsForSection(section, base);
    const size = sizes?.sectionShardSizes[section] ?? sizes?.shardSize ?? null;
    return size === null || size >= limits.maxUrls ? limits : { ...limits, maxUrls: size };
  };
}
