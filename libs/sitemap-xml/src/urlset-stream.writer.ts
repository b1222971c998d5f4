import { createGzip } from 'node:zlib';
import { DEFAULT_GZIP_LEVEL } from './gzip';
import { MAX_BYTES_PER_FILE, MAX_URLS_PER_FILE } from './limits';
import { URLSET_CLOSE, urlsetOpen } from './namespaces';
import { SitemapXmlError } from './sitemap-xml.errors';
import type { FileLimits } from './urlset.writer';

export interface UrlsetStreamMeta {
  /** How many `<url>` elements the body holds. */
  urls: number;
  /** UTF-8 byte length of the body. */
  bytes: number;
  /** OR of the fragments' namespace masks. */
  mask: number;
}

/**
 * Gzips one `<urlset>` whose body arrives as a stream of large blocks (a database COPY of
 * stored fragments), without holding the uncompressed file. Limits are checked on the stated
 * counts before anything is written, and the stated byte count against what arrived after.
 * Blocks should be large (≥ 64 KiB): per-URL writes into a gzip stream are very slow. Each
 * block is fully consumed before the next is requested, so a producer may reuse one buffer.
 */
export async function gzipUrlsetStream(
  body: AsyncIterable<Buffer>,
  meta: UrlsetStreamMeta,
  opts: FileLimits & { level?: number; stylesheet?: string | null } = {},
): Promise<{ gzip: Buffer; byteSize: number }> {
  const maxUrls = opts.maxUrls ?? MAX_URLS_PER_FILE;
  const maxBytes = opts.maxBytes ?? MAX_BYTES_PER_FILE;
  if (meta.urls === 0) throw new SitemapXmlError('EMPTY_FILE', 'a urlset needs at least one <url>');
  if (meta.urls > maxUrls)
    throw new SitemapXmlError('FILE_URL_LIMIT', `${meta.urls} URLs exceed the limit of ${maxUrls} per file`, {
      urls: meta.urls,
      maxUrls,
    });
  // The stylesheet costs one header, not a byte per URL.
  const head = urlsetOpen(meta.mask, opts.stylesheet);
  const byteSize = head.length + meta.bytes + URLSET_CLOSE.length;
  if (byteSize > maxBytes)
    throw new SitemapXmlError('FILE_BYTE_LIMIT', `${byteSize} bytes exceed the limit of ${maxBytes} per file`, {
      bytes: byteSize,
      maxBytes,
    });

  const gzip = createGzip({ level: opts.level ?? DEFAULT_GZIP_LEVEL });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    gzip.once('end', resolve);
    gzip.once('error', reject);
  });
  // Resolves once zlib has consumed the chunk, so the producer may reuse its buffer.
  const write = (chunk: Buffer | string) =>
    new Promise<void>((resolve, reject) => gzip.write(chunk, (error) => (error ? reject(error) : resolve())));
  let received = 0;
  try {
    await write(head);
    for await (const block of body) {
      received += block.length;
      await write(block);
    }
    await write(URLSET_CLOSE);
  } catch (error) {
    gzip.destroy();
    throw error;
  }
  gzip.end();
  await finished;
  if (received !== meta.bytes) {
    throw new SitemapXmlError(
      'FRAGMENT_BYTES_MISMATCH',
      `body declared ${meta.bytes} bytes but ${received} arrived`,
      {},
    );
  }
  return { gzip: Buffer.concat(out), byteSize };
}
