// File names are part of the public contract: crawlers remember them. They derive from the
// shard's section and ordinal only, so a shard keeps its name for life.

import { XSL_STYLESHEET_FILE } from '@sitemaps/sitemap-xml';

export const INDEX_PATH = 'sitemap.xml';
/** The plain-text sitemap, for sites that enable it. */
export const TEXT_SITEMAP_PATH = 'sitemap.txt';
export const DEFAULT_SECTION_FILE_PREFIX = 'sitemap';
export const SECTION_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** Names the platform uses for its own files; a section may not take them. */
export const RESERVED_SECTIONS = new Set(['sitemap', 'news', 'index']);

/** `part` > 1 only when a shard outgrew a limit after planning and had to be written as several files. */
export function shardFilePath(section: string, ordinal: number, part = 1): string {
  const prefix = section === '' ? DEFAULT_SECTION_FILE_PREFIX : section;
  return `sitemaps/${prefix}-${ordinal}${part > 1 ? `-${part}` : ''}.xml.gz`;
}

/**
 * How a published file names the XSL stylesheet served at the site's root: relative to the file
 * (`sitemap.xsl` from the index, `../sitemap.xsl` from a shard), so it resolves whether the site
 * is fetched by its own host or under the platform's `/s/<hostname>/` prefix, where an absolute
 * `/sitemap.xsl` would leave the site.
 */
export function stylesheetHref(filePath: string): string {
  const depth = filePath.split('/').length - 1;
  return '../'.repeat(depth) + XSL_STYLESHEET_FILE;
}
