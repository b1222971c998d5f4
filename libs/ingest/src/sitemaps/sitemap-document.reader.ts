// A fetched sitemap file, streamed: gzip recognised by its magic bytes (servers send .xml.gz as
// octet-stream as often as with Content-Encoding), the root element sniffed from the head, then
// the `sitemap` package's SAX-based parsers. No DOM, whatever the file's size.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ErrorLevel, XMLToSitemapIndexStream, XMLToSitemapItemStream, type IndexItem, type SitemapItem } from 'sitemap';

export type SitemapDocument =
  | { kind: 'index'; entries: AsyncIterable<IndexItem>; errors(): string[] }
  | { kind: 'urlset'; items: AsyncIterable<SitemapItem>; errors(): string[] }
  | { kind: 'text'; lines: AsyncIterable<string> };

export class NotASitemapError extends Error {
  readonly code = 'NOT_A_SITEMAP';
}

const HEAD_BYTES = 64 * 1024;
const ROOT = /<(?:[A-Za-z_][\w.-]*:)?(urlset|sitemapindex)[\s>/]/;

export async function openSitemapDocument(body: Readable): Promise<SitemapDocument> {
  let { head, rest } = await peek(body, 2);
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const gunzip = createGunzip();
    gunzip.on('error', () => undefined);
    ({ head, rest } = await peek(pipeline(rest, gunzip, () => undefined), HEAD_BYTES));
  } else ({ head, rest } = await peek(rest, HEAD_BYTES));
  const text = head.toString('utf8');
  const root = ROOT.exec(text)?.[1];
  if (root === 'sitemapindex') {
    const parser = new XMLToSitemapIndexStream({ level: ErrorLevel.WARN, logger: false });
    return { kind: 'index', entries: piped(rest, parser), errors: () => (parser.error ? [parser.error.message] : []) };
  }
  if (root === 'urlset') {
    const parser = new XMLToSitemapItemStream({ level: ErrorLevel.WARN, logger: false });
    return { kind: 'urlset', items: piped(rest, parser), errors: () => parser.errors.map((error) => error.message) };
  }
  // The protocol's text format: one URL a line, nothing else.
  if (/^\s*https?:\/\/\S+\s*$/i.test(text.trimStart().split('\n')[0] ?? '') && !text.trimStart().startsWith('<')) return { kind: 'text', lines: lines(rest) };
  throw new NotASitemapError('neither a <urlset>, a <sitemapindex> nor a text sitemap');
}

/** The parser fails with its source: a read error or a byte limit ends the file, never hangs it. */
function piped<T extends NodeJS.ReadWriteStream>(source: Readable, parser: T): T {
  parser.on('error', () => undefined);
  return pipeline(source, parser, () => undefined) as unknown as T;
}

/** Reads at least `bytes` (or all) and gives them back with a stream that replays them first. */
async function peek(stream: Readable, bytes: number): Promise<{ head: Buffer; rest: Readable }> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < bytes) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    chunks.push(chunk);
    size += chunk.length;
  }
  const head = Buffer.concat(chunks);
  const rest = Readable.from(
    (async function* () {
      if (head.length > 0) yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })(),
  );
  return { head, rest };
}

async function* lines(stream: Readable): AsyncGenerator<string> {
  let buffered = '';
  for await (const chunk of stream) {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) if (part.trim()) yield part.trim();
  }
  if (buffered.trim()) yield buffered.trim();
}
