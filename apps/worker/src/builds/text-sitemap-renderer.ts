// `/sitemap.txt`, for sites that enable it: the locs of the published URLs in shard order, one a line.
// One file only, because the index lists XML sitemaps only and robots.txt names the index: a
// site with more than 50,000 URLs (or 50 MiB of them) gets the first ones in sitemap.txt, while
// the XML index keeps listing every URL.
import { Logger } from '@nestjs/common';
import type { UrlRepository } from '@sitemaps/data';
import { gzipFile, MAX_BYTES_PER_FILE, MAX_URLS_PER_FILE, renderTextSitemap } from '@sitemaps/sitemap-xml';
import type { BlobStore, ManifestFile } from '@sitemaps/storage';

const logger = new Logger('builds');

/**
 * Stores the site's text sitemap and returns its manifest entry; null when it publishes no URL.
 * Excluded URLs (flagged, or matched by `exclusionPatterns`) are left out, as from the XML files.
 */
export async function renderTextSitemapFile(
  urls: UrlRepository,
  store: BlobStore,
  { siteId, exclusionPatterns }: { siteId: string; exclusionPatterns: readonly string[] },
): Promise<ManifestFile | null> {
  const rows = await urls.locsInShardOrder(siteId, MAX_URLS_PER_FILE + 1, exclusionPatterns);
  if (rows.length === 0) return null;
  const locs: string[] = [];
  let bytes = 0;
  for (const loc of rows) {
    // Stored locs are normalised ASCII URIs: characters are bytes, plus one for the newline.
    if (locs.length === MAX_URLS_PER_FILE || bytes + loc.length + 1 > MAX_BYTES_PER_FILE) break;
    locs.push(loc);
    bytes += loc.length + 1;
  }
  if (locs.length < rows.length)
    logger.warn(
      `site ${siteId}: sitemap.txt lists its first ${locs.length} URLs only (one file's limit); the XML index lists them all`,
    );
  const text = Buffer.from(renderTextSitemap(locs));
  const gzip = await gzipFile([text]);
  const sha256 = await store.put(siteId, gzip, text.length);
  return { sha256, kind: 'text', byteSize: text.length, gzipSize: gzip.length, urlCount: locs.length, lastmod: null };
}
