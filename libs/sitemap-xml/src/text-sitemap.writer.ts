import { describeChar, findForbiddenChar } from './escape';
import { MAX_URL_LENGTH } from './limits';
import { SitemapXmlError } from './sitemap-xml.errors';
import { normalizeHttpUrl } from './url.rules';
import { fileLimitError } from './urlset.writer';

/**
 * The plain-text sitemap: one absolute URL per line, UTF-8, each line ending in LF, with
 * the same 50,000-URL / 50 MiB limits as XML. URLs are written as strict URIs, so a line can
 * never contain a line break or anything a crawler would split on.
 */
export function renderTextSitemap(locs: readonly string[]): string {
  const tooMany = fileLimitError(locs.length, 0);
  if (tooMany) throw tooMany;
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
  const tooBig = fileLimitError(lines.length, text.length);
  if (tooBig) throw tooBig;
  return text;
}
