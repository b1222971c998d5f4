// File names are part of the public contract: crawlers remember them. They derive from the
// shard's section and ordinal only, so a shard keeps its name for life.
//
// Every file sits at the site's root: the protocol lets a sitemap list only URLs under its own
// directory, so a shard in a folder would have every URL outside it dropped by a strict crawler.
// Root names cannot collide with the platform's other root files: every shard is
// `sitemap-….xml.gz` (never `sitemap.xml`), every text file `sitemap.txt` or `sitemap-<n>.txt`
// (never robots.txt), and the IndexNow key file is a UUID (hex digits and hyphens: never
// `sitemap…`). Sections are `[a-z0-9-]` and parts are joined with `.`, which no section holds,
// so no two (section, ordinal, part) share a name.

import { XSL_STYLESHEET_FILE } from '@sitemaps/sitemap-xml';

export const INDEX_PATH = 'sitemap.xml';
/** The first plain-text sitemap, for sites that enable it; more files are `sitemap-<n>.txt`. */
export const TEXT_SITEMAP_PATH = 'sitemap.txt';
export const ROBOTS_PATH = 'robots.txt';
export const SHARD_FILE_PREFIX = 'sitemap-';
export const SECTION_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** Names the platform uses for its own files; a section may not take them. */
export const RESERVED_SECTIONS = new Set(['sitemap', 'news', 'index']);
/**
 * The folder shards were published in until they moved to the root. A path under it that a site
 * published answers 301 to the shard's root path (`manifests.redirects`).
 */
export const LEGACY_SHARD_FOLDER = 'sitemaps/';

/**
 * `sitemap-<n>.xml.gz` (the default section), `sitemap-<section>-<n>.xml.gz`; `part` > 1 only
 * when a shard outgrew a limit after planning and had to be written as several files
 * (`sitemap-<section>-<n>.<part>.xml.gz`).
 */
export function shardFilePath(section: string, ordinal: number, part = 1): string {
  const name = section === '' ? `${ordinal}` : `${section}-${ordinal}`;
  return `${SHARD_FILE_PREFIX}${name}${part > 1 ? `.${part}` : ''}.xml.gz`;
}

/** Where the same shard was published before files moved to the root (`sitemaps/<prefix>-<n>[-<part>].xml.gz`). */
export function legacyShardFilePath(section: string, ordinal: number, part = 1): string {
  return `${LEGACY_SHARD_FOLDER}${section === '' ? 'sitemap' : section}-${ordinal}${part > 1 ? `-${part}` : ''}.xml.gz`;
}

/** The `n`th (1-based) plain-text sitemap file. */
export function textSitemapPath(n: number): string {
  return n === 1 ? TEXT_SITEMAP_PATH : `${SHARD_FILE_PREFIX}${n}.txt`;
}

/**
 * How a published file names the XSL stylesheet served at the site's root: relative to the file
 * (`sitemap.xsl` from a root file), so it resolves whether the site is fetched by its own host
 * or under the platform's `/s/<hostname>/` prefix, where an absolute `/sitemap.xsl` would leave
 * the site.
 */
export function stylesheetHref(filePath: string): string {
  const depth = filePath.split('/').length - 1;
  return '../'.repeat(depth) + XSL_STYLESHEET_FILE;
}
