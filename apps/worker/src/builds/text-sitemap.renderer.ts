// The plain-text sitemaps, for sites that enable it: the locs of the published URLs in shard order,
// one a line, split as XML shards are (at most 50,000 URLs and 50 MiB per file): `sitemap.txt`,
// then `sitemap-2.txt`, `sitemap-3.txt`… A sitemap index lists XML sitemaps only, so each text
// file is named by a `Sitemap:` line of the site's robots.txt (the public server writes them from
// the manifest). Excluded URLs (flagged, or matched by the site's rules) are left out, as from
// the XML files.
import type { UrlRepository, UrlShardOrderKey } from '@sitemaps/data';
import { textSitemapPath } from '@sitemaps/domain';
import { gzipFile, MAX_BYTES_PER_FILE, MAX_URLS_PER_FILE, renderTextSitemap } from '@sitemaps/sitemap-xml';
import type { BlobStore, ManifestFile } from '@sitemaps/storage';

export interface TextSitemapLimits {
  maxUrls: number;
  /** Uncompressed bytes per file. */
  maxBytes: number;
  /** Rows read per query: a site of millions of URLs is read in pages, one file's locs held at a time. */
  pageSize: number;
}

const LIMITS: TextSitemapLimits = { maxUrls: MAX_URLS_PER_FILE, maxBytes: MAX_BYTES_PER_FILE, pageSize: 10_000 };

/** Stores the site's text sitemaps and returns their manifest entries by path; none when it has no live URL. */
export async function renderTextSitemapFiles(
  urls: UrlRepository,
  store: BlobStore,
  { siteId, exclusionPatterns = [] }: { siteId: string; exclusionPatterns?: readonly string[] },
  limits: TextSitemapLimits = LIMITS,
): Promise<[string, ManifestFile][]> {
  const files: [string, ManifestFile][] = [];
  let locs: string[] = [];
  let bytes = 0;
  const flush = async () => {
    const text = Buffer.from(renderTextSitemap(locs));
    const gzip = await gzipFile([text]);
    const sha256 = await store.put(siteId, gzip, text.length);
    files.push([
      textSitemapPath(files.length + 1),
      { sha256, kind: 'text', byteSize: text.length, gzipSize: gzip.length, urlCount: locs.length, lastmod: null },
    ]);
    locs = [];
    bytes = 0;
  };
  let after: UrlShardOrderKey | null = null;
  for (;;) {
    const page = await urls.locsInShardOrder(siteId, { after, limit: limits.pageSize }, exclusionPatterns);
    for (const { loc } of page) {
      // Stored locs are normalised ASCII URIs: characters are bytes, plus one for the newline.
      if (locs.length === limits.maxUrls || (locs.length > 0 && bytes + loc.length + 1 > limits.maxBytes))
        await flush();
      locs.push(loc);
      bytes += loc.length + 1;
    }
    if (page.length < limits.pageSize) break;
    const last = page[page.length - 1] as UrlShardOrderKey;
    after = { section: last.section, ordinal: last.ordinal, id: last.id };
  }
  if (locs.length > 0) await flush();
  return files;
}
