// A fetched sitemap file, streamed and already decompressed (decompressBounded): the root
// element sniffed from the head, then read with sax (sitemap-xml.reader.ts). No DOM, whatever
// the file's size. A text sitemap (one URL a line) is recognised by its first line.
import { Readable } from 'node:stream';
import { readSitemapXml, type RawSitemapUrl, type UnknownElement, type XmlPosition } from './sitemap-xml.reader';
import { sniffXmlEncoding, xmlTextDecoder } from './xml-encoding';

interface XmlDocument {
  error(): XmlPosition | undefined;
  /** Elements of the sitemap namespace the protocol does not define, met since the last call. */
  unknown(): UnknownElement[];
}

export type SitemapDocument =
  | ({ kind: 'index'; entries: AsyncIterable<string> } & XmlDocument)
  | ({ kind: 'urlset'; items: AsyncIterable<RawSitemapUrl> } & XmlDocument)
  | { kind: 'text'; lines: AsyncIterable<string> };

export class NotASitemapError extends Error {
  readonly code = 'NOT_A_SITEMAP';
}

/** The file is not well-formed XML past a point: what came before it was read. */
export class InvalidXmlError extends Error {
  readonly code = 'INVALID_XML';
  constructor(readonly position: XmlPosition) {
    super(`not well-formed XML at line ${position.line}, column ${position.column}: ${position.message}`);
  }
}

const HEAD_BYTES = 64 * 1024;
const ROOT = /<(?:[A-Za-z_][\w.-]*:)?(urlset|sitemapindex)[\s>/]/;

export async function openSitemapDocument(body: AsyncIterable<Buffer>): Promise<SitemapDocument> {
  const { head, rest } = await peek(body, HEAD_BYTES);
  const encoding = sniffXmlEncoding(head);
  const text = new TextDecoder(encoding).decode(head);
  const root = ROOT.exec(text)?.[1];
  if (root === 'sitemapindex') {
    const read = readSitemapXml('sitemapindex', rest, encoding);
    return { kind: 'index', entries: read.items, error: read.error, unknown: read.unknown };
  }
  if (root === 'urlset') {
    const read = readSitemapXml('urlset', rest, encoding);
    return { kind: 'urlset', items: read.items, error: read.error, unknown: read.unknown };
  }
  // The protocol's text format: one URL a line, nothing else.
  if (/^\s*https?:\/\/\S+\s*$/i.test(text.trimStart().split('\n')[0] ?? '') && !text.trimStart().startsWith('<'))
    return { kind: 'text', lines: lines(rest, encoding) };
  throw new NotASitemapError('neither a <urlset>, a <sitemapindex> nor a text sitemap');
}

/** Reads at least `bytes` (or all) and gives them back with a stream that replays them first. */
async function peek(stream: AsyncIterable<Buffer>, bytes: number): Promise<{ head: Buffer; rest: Readable }> {
  const iterator = stream[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < bytes) {
    const next = await iterator.next();
    if (next.done) break;
    chunks.push(next.value);
    size += next.value.length;
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

async function* lines(stream: Readable, encoding: string): AsyncGenerator<string> {
  const decoder = xmlTextDecoder(encoding);
  let buffered = '';
  for await (const chunk of stream) {
    buffered += decoder.write(chunk as Buffer);
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) if (part.trim()) yield part.trim();
  }
  buffered += decoder.end();
  if (buffered.trim()) yield buffered.trim();
}
