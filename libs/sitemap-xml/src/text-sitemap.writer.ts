import { describeChar, findForbiddenChar } from './escape';
import { MAX_BYTES_PER_FILE, MAX_URL_LENGTH, MAX_URLS_PER_FILE } from './limits';
import { SitemapXmlError } from './sitemap-xml.errors';
import { normalizeHttpUrl } from './url.rules';

/**
 * The plain-text sitemap: one absolute URL per line, UTF-8, each line ending in LF, with
 * the same 50,000-URL / 50 MiB limits as XML. URLs are written as strict URIs, so a line can
 * never contain a line break or anything a crawler would split on.
 */
export function renderTextSitemap(locs: readonly string[]): string {
  if (locs.length > MAX_URLS_PER_FILE) {
    throw new SitemapXmlError(
      'FILE_URL_LIMIT',
      `${locs.length} URLs exceed the limit of ${MAX_URLS_PER_FILE} per file`,
      {
        urls: locs.length,
        maxUrls: MAX_URLS_PER_FILE,
      },
    );
  }
  const lines = locs.map((loc, index) => {
    const bad = findForbiddenChar(loc);
    if (bad >= 0)
      throw new SitemapXmlError('INVALID_CHARACTER', `URL ${index}: ${describeChar(loc, bad)} is not allowed`, {
        index,
      });
    const result = normalizeHttpUrl(loc);
    if (!result.ok || result.href.length > MAX_URL_LENGTH) {
      throw new SitemapXmlError(
        'INVALID_URL',
        `URL ${index} "${loc}" is not an absolute http(s) URL under 2,048 characters`,
        { index },
      );
    }
    return result.href;
  });
  const text = lines.length === 0 ? '' : lines.join('\n') + '\n';
  // Strict URIs are ASCII, so characters are bytes.
  if (text.length > MAX_BYTES_PER_FILE) {
    throw new SitemapXmlError(
      'FILE_BYTE_LIMIT',
      `${text.length} bytes exceed the limit of ${MAX_BYTES_PER_FILE} per file`,
      {
        bytes: text.length,
      },
    );
  }
  return text;
}
