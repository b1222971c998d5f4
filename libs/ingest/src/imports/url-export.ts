// A site's URLs as NDJSON in exactly the shape an import reads (one URL entry a line), so that an
// export imported into another site of the same hostname publishes the same files. The inverse of
// url-entry.preparer.ts for what it stores:
// - `lastmod` always, even when the platform set it: without it the import would date every URL
//   at the import, and the files would differ;
// - `section` unless it is the news section, which the import gives fresh articles by itself (a
//   client cannot name it);
// - `alternates`, the whole stored cluster with the URL itself: the import reads the URL's own
//   language from it, and links to pages not imported yet wait for them as they do in any import;
// - the site's default changefreq and priority as the URL stores them, written out;
// - `excluded: true` for a URL the client flagged (a site's rules are the site's, not the URLs').
import { NEWS_SECTION } from '@sitemaps/domain';
import type { ExportedUrlRow } from '@sitemaps/data';
import type { UrlEntryInput } from '@sitemaps/sitemap-xml';

/** The import entry of a stored URL. */
export function exportEntry(row: ExportedUrlRow): UrlEntryInput {
  const entry: UrlEntryInput = { loc: row.loc };
  if (row.lastmod !== null) entry.lastmod = row.lastmod;
  if (row.changefreq !== null) entry.changefreq = row.changefreq as UrlEntryInput['changefreq'];
  if (row.priority !== null) entry.priority = row.priority;
  if (row.section !== '' && row.section !== NEWS_SECTION) entry.section = row.section;
  if (row.alternates && row.alternates.length > 0) entry.alternates = row.alternates;
  if (Array.isArray(row.images) && row.images.length > 0) entry.images = row.images as UrlEntryInput['images'];
  if (Array.isArray(row.videos) && row.videos.length > 0) entry.videos = row.videos as UrlEntryInput['videos'];
  if (row.news) entry.news = row.news as UrlEntryInput['news'];
  if (row.excluded) entry.excluded = true;
  return entry;
}

/**
 * NDJSON text of the exported rows, one chunk per batch: a stream built on it (`Readable.from`)
 * pulls the next batch only when the client has taken the last one, so memory stays one batch.
 */
export async function* ndjsonExport(batches: AsyncIterable<ExportedUrlRow[]>): AsyncGenerator<string> {
  for await (const rows of batches) {
    let chunk = '';
    for (const row of rows) chunk += `${JSON.stringify(exportEntry(row))}\n`;
    yield chunk;
  }
}
