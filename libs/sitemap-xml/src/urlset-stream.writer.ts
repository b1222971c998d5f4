import { constants, createGzip } from 'node:zlib';
import { DEFAULT_GZIP_LEVEL } from './gzip';
import { URLSET_CLOSE, urlsetOpen } from './namespaces';
import { SitemapXmlError } from './sitemap-xml.errors';
import { fileLimitError, type FileLimits } from './urlset.writer';

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
/** zlib's output chunk: 16 KiB by default, one thread-pool round trip each (see gzip.ts). */
const OUT_CHUNK = 256 * 1024;

export async function gzipUrlsetStream(
  body: AsyncIterable<Buffer>,
  meta: UrlsetStreamMeta,
  opts: FileLimits & { level?: number; stylesheet?: string | null } = {},
): Promise<{ gzip: Buffer; byteSize: number }> {
  const { head, close, byteSize } = urlsetFrame(meta, opts);
  const gzip = createGzip({ level: opts.level ?? DEFAULT_GZIP_LEVEL, chunkSize: OUT_CHUNK });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    gzip.once('end', resolve);
    gzip.once('error', reject);
  });
  // Resolves once zlib has consumed the chunk, so the producer may reuse its buffer.
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => gzip.write(chunk, (error) => (error ? reject(error) : resolve())));
  let received = 0;
  try {
    await write(head);
    for await (const block of body) {
      received += block.length;
      await write(block);
    }
    await write(close);
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

/**
 * The same file as `gzipUrlsetStream`, from a body that arrives in consecutive parts (ranges of
 * the shard read on separate connections): each part is deflated on its own, concurrently (zlib
 * runs on libuv's thread pool), and they are joined into ONE gzip member. Every part but the last
 * ends on a sync flush (byte-aligned, not final), so the deflate streams concatenate; the CRC-32
 * is combined from the parts'. Each part starts with an empty window, so the file is a few bytes
 * per part larger than one stream's. One part: exactly `gzipUrlsetStream`.
 */
export async function gzipUrlsetParts(
  parts: readonly AsyncIterable<Buffer>[],
  meta: UrlsetStreamMeta,
  opts: FileLimits & { level?: number; stylesheet?: string | null } = {},
): Promise<{ gzip: Buffer; byteSize: number }> {
  if (parts.length === 1) return gzipUrlsetStream(parts[0] as AsyncIterable<Buffer>, meta, opts);
  const { head, close, byteSize } = urlsetFrame(meta, opts);
  const level = opts.level ?? DEFAULT_GZIP_LEVEL;
  const last = parts.length - 1;
  // Settled, not all: a failed part must not leave another still reading its connection.
  const settled = await Promise.allSettled(
    parts.map((body, index) =>
      deflatePart(body, {
        level,
        head: index === 0 ? head : null,
        tail: index === last ? close : null,
        final: index === last,
      }),
    ),
  );
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  const deflated = settled.map((result) => (result as PromiseFulfilledResult<DeflatedPart>).value);

  const received = deflated.reduce((sum, part) => sum + part.length, 0) - head.length - close.length;
  if (received !== meta.bytes) {
    throw new SitemapXmlError(
      'FRAGMENT_BYTES_MISMATCH',
      `body declared ${meta.bytes} bytes but ${received} arrived`,
      {},
    );
  }
  let crc = 0;
  for (const part of deflated) crc = crc32Combine(crc, part.crc, part.length);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(byteSize % 2 ** 32, 4);
  return { gzip: Buffer.concat([GZIP_HEADER, ...deflated.flatMap((part) => part.out), trailer]), byteSize };
}

/**
 * A urlset's opening and closing tags and its total size, after checking the stated counts
 * against the file limits (before anything is written).
 */
export function urlsetFrame(
  meta: UrlsetStreamMeta,
  opts: FileLimits & { stylesheet?: string | null },
): { head: Buffer; close: Buffer; byteSize: number } {
  if (meta.urls === 0) throw new SitemapXmlError('EMPTY_FILE', 'a urlset needs at least one <url>');
  // The stylesheet costs one header, not a byte per URL. Heads are ASCII: length is bytes.
  const head = Buffer.from(urlsetOpen(meta.mask, opts.stylesheet));
  const close = Buffer.from(URLSET_CLOSE);
  const byteSize = frameBytes(head, meta.bytes);
  const broken = fileLimitError(meta.urls, byteSize, opts);
  if (broken) throw broken;
  return { head, close, byteSize };
}

/** Whether `urlsetFrame` takes a urlset of `meta`: for a caller choosing how to render a shard. */
export function urlsetFits(meta: UrlsetStreamMeta, opts: FileLimits & { stylesheet?: string | null }): boolean {
  const byteSize = frameBytes(urlsetOpen(meta.mask, opts.stylesheet), meta.bytes);
  return meta.urls > 0 && fileLimitError(meta.urls, byteSize, opts) === null;
}

/** A urlset file's size: its head, its body and the closing tag. */
function frameBytes(head: { length: number }, bodyBytes: number): number {
  return head.length + bodyBytes + URLSET_CLOSE.length;
}

/** What zlib writes for a gzip member without name or time (OS: Unix). */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

export interface DeflatedPart {
  out: Buffer[];
  /** CRC-32 and length of the uncompressed bytes. */
  crc: number;
  length: number;
}

/**
 * Deflates one part of a file on its own (an empty window: it refers to no earlier part). A part
 * that is not `final` ends on a sync flush, so the next part's deflate data may follow it.
 *
 * It is deflated as a gzip member and unwrapped, so that the CRC-32 of its bytes is computed by
 * zlib on the thread pool (the trailer's), not by `crc32` on the main thread, which cost a
 * quarter as much as the deflate itself. The member is: the 10-byte header, the deflate data, and
 * the 8-byte trailer (CRC-32, length). A part that is not final is sync-flushed before the
 * member ends, so its data is followed only by the empty final block zlib then writes (`03 00`),
 * which is cut off with the trailer.
 */
export async function deflatePart(
  body: AsyncIterable<Buffer>,
  opts: { level: number; head: Buffer | null; tail: Buffer | null; final: boolean },
): Promise<DeflatedPart> {
  const gzip = createGzip({ level: opts.level, chunkSize: OUT_CHUNK });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const failed = new Promise<never>((_, reject) => gzip.once('error', reject));
  failed.catch(() => undefined);
  let length = 0;
  const write = (chunk: Buffer) => {
    length += chunk.length;
    return new Promise<void>((resolve, reject) => gzip.write(chunk, (error) => (error ? reject(error) : resolve())));
  };
  try {
    if (opts.head) await write(opts.head);
    for await (const block of body) await write(block);
    if (opts.tail) await write(opts.tail);
    if (!opts.final)
      await Promise.race([new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, resolve)), failed]);
    const ended = new Promise<void>((resolve) => gzip.once('end', resolve));
    gzip.end();
    await Promise.race([ended, failed]);
  } catch (error) {
    gzip.destroy();
    throw error;
  }
  const member = out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out);
  const trailer = member.length - 8;
  const crc = member.readUInt32LE(trailer);
  if (member.readUInt32LE(trailer + 4) !== length % 2 ** 32) throw new Error('gzip trailer disagrees with the input');
  // Not final: the sync flush's marker (an empty stored block, 00 00 ff ff), then the empty final block.
  const end = opts.final ? trailer : trailer - EMPTY_FINAL_BLOCK.length;
  if (!opts.final && !member.subarray(end - 4, trailer).equals(SYNC_THEN_FINAL))
    throw new Error('unexpected end of a sync-flushed deflate part');
  return { out: [member.subarray(GZIP_HEADER.length, end)], crc, length };
}

/** What zlib ends a member with after a sync flush: the flush marker, then an empty final block. */
const EMPTY_FINAL_BLOCK = Buffer.from([0x03, 0x00]);
const SYNC_THEN_FINAL = Buffer.from([0x00, 0x00, 0xff, 0xff, 0x03, 0x00]);

/** zlib's crc32_combine: the CRC-32 of A followed by B, from A's, B's and B's length. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320; // the CRC-32 polynomial, reflected
  let row = 1;
  for (let n = 1; n < 32; n += 1) {
    odd[n] = row;
    row = (row << 1) >>> 0;
  }
  gf2Square(even, odd); // 2 zero bits
  gf2Square(odd, even); // 4 zero bits
  let crc = crcA >>> 0;
  let length = lengthB;
  do {
    gf2Square(even, odd); // one zero byte, then 2, 4, ... bytes
    if (length % 2 === 1) crc = gf2Times(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    gf2Square(odd, even);
    if (length % 2 === 1) crc = gf2Times(odd, crc);
    length = Math.floor(length / 2);
  } while (length !== 0);
  return (crc ^ crcB) >>> 0;
}

function gf2Times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  let v = vector >>> 0;
  for (let i = 0; v !== 0; i += 1, v >>>= 1) if (v & 1) sum ^= matrix[i] as number;
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, matrix: Uint32Array): void {
  for (let n = 0; n < 32; n += 1) square[n] = gf2Times(matrix, matrix[n] as number);
}
