import { MAX_BYTES_PER_FILE, MAX_URLS_PER_FILE } from './limits';
import { URLSET_CLOSE, urlsetOpen } from './namespaces';
import { SitemapXmlError } from './sitemap-xml.errors';
import type { FileLimits } from './urlset.writer';

/** Fragments already joined in order (e.g. by the database), with what is known about them. */
export interface UrlsetBody {
  xml: string | Buffer;
  /** How many `<url>` elements the body holds. */
  urls: number;
  /** UTF-8 byte length of `xml`. */
  bytes: number;
  /** OR of the fragments' namespace masks. */
  mask: number;
}

/**
 * One `<urlset>` file around a pre-joined body: the fast path for a shard read as a single
 * value. Enforces the same limits as `assembleUrlset` and refuses a body whose real length
 * differs from the stated one.
 */
export function assembleUrlsetBody(body: UrlsetBody, limits: FileLimits = {}): Buffer {
  const maxUrls = limits.maxUrls ?? MAX_URLS_PER_FILE;
  const maxBytes = limits.maxBytes ?? MAX_BYTES_PER_FILE;
  if (body.urls === 0) throw new SitemapXmlError('EMPTY_FILE', 'a urlset needs at least one <url>');
  if (body.urls > maxUrls) throw new SitemapXmlError('FILE_URL_LIMIT', `${body.urls} URLs exceed the limit of ${maxUrls} per file`, { urls: body.urls, maxUrls });
  const head = urlsetOpen(body.mask);
  const total = head.length + body.bytes + URLSET_CLOSE.length;
  if (total > maxBytes) throw new SitemapXmlError('FILE_BYTE_LIMIT', `${total} bytes exceed the limit of ${maxBytes} per file`, { bytes: total, maxBytes });
  const out = Buffer.allocUnsafe(total);
  let offset = out.write(head, 0, 'latin1');
  const written = typeof body.xml === 'string' ? out.write(body.xml, offset, 'utf8') : body.xml.copy(out, offset);
  if (written !== body.bytes || (typeof body.xml === 'string' ? Buffer.byteLength(body.xml) : body.xml.length) !== body.bytes) {
    throw new SitemapXmlError('FRAGMENT_BYTES_MISMATCH', `body declares ${body.bytes} bytes but has ${written}`, {});
  }
  offset += written;
  out.write(URLSET_CLOSE, offset, 'latin1');
  return out;
}
