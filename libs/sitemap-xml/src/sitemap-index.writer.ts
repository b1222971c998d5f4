import { create } from 'xmlbuilder2';
import { describeChar, findForbiddenChar } from './escape';
import { MAX_BYTES_PER_FILE, MAX_INDEX_ENTRIES, MAX_URL_LENGTH } from './limits';
import { SITEMAP_NS, xslStylesheetData } from './namespaces';
import { SitemapXmlError } from './sitemap-xml.errors';
import { normalizeHttpUrl } from './url.rules';
import { normalizeW3cDatetime } from './w3c-datetime.rules';

// The index is small (one entry per file) and written once per publish, so it uses
// xmlbuilder2 for clarity; speed is irrelevant here.

export interface SitemapIndexEntry {
  /** Absolute URL of a sitemap file. */
  loc: string;
  /** When that file last changed: W3C date or date-time. */
  lastmod?: string;
  /**
   * Set when the entry is itself an index. Google rejects nested indexes, so such an entry
   * throws NESTED_INDEX; names are not inspected, the caller knows what it published.
   */
  isIndex?: boolean;
}

/** `stylesheet`: the href of the XSL stylesheet, relative to the index (none: no PI). */
export function renderSitemapIndex(
  entries: readonly SitemapIndexEntry[],
  opts: { stylesheet?: string | null } = {},
): string {
  if (entries.length === 0) throw new SitemapXmlError('EMPTY_FILE', 'a sitemap index needs at least one <sitemap>');
  if (entries.length > MAX_INDEX_ENTRIES) {
    throw new SitemapXmlError(
      'INDEX_ENTRY_LIMIT',
      `${entries.length} entries exceed the limit of ${MAX_INDEX_ENTRIES} per index`,
      {
        entries: entries.length,
        maxEntries: MAX_INDEX_ENTRIES,
      },
    );
  }
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  if (opts.stylesheet) doc.ins('xml-stylesheet', xslStylesheetData(opts.stylesheet));
  const root = doc.ele(SITEMAP_NS, 'sitemapindex');
  entries.forEach((entry, index) => {
    if (entry.isIndex === true) {
      throw new SitemapXmlError(
        'NESTED_INDEX',
        `entry ${index} (${entry.loc}) is an index; an index may list sitemaps only`,
        { index },
      );
    }
    const sitemap = root.ele('sitemap');
    sitemap.ele('loc').txt(indexLoc(entry.loc, index));
    if (entry.lastmod !== undefined) sitemap.ele('lastmod').txt(indexLastmod(entry.lastmod, index));
  });
  const xml = root.end({ prettyPrint: true, wellFormed: true }) + '\n';
  const bytes = Buffer.byteLength(xml, 'utf8');
  if (bytes > MAX_BYTES_PER_FILE) {
    throw new SitemapXmlError('FILE_BYTE_LIMIT', `index is ${bytes} bytes; the limit is ${MAX_BYTES_PER_FILE}`, {
      bytes,
    });
  }
  return xml;
}

function indexLoc(loc: string, index: number): string {
  const bad = findForbiddenChar(loc);
  if (bad >= 0)
    throw new SitemapXmlError('INVALID_CHARACTER', `entry ${index} loc: XML 1.0 forbids ${describeChar(loc, bad)}`, {
      index,
    });
  const result = normalizeHttpUrl(loc);
  if (!result.ok || result.href.length > MAX_URL_LENGTH) {
    throw new SitemapXmlError(
      'INVALID_URL',
      `entry ${index} loc "${loc}" is not an absolute http(s) URL under 2,048 characters`,
      {
        index,
      },
    );
  }
  return result.href;
}

function indexLastmod(lastmod: string, index: number): string {
  const result = normalizeW3cDatetime(lastmod);
  if (!result.ok) {
    throw new SitemapXmlError('INVALID_VALUE', `entry ${index} lastmod "${lastmod}" is not a W3C date or date-time`, {
      index,
    });
  }
  return result.value;
}
