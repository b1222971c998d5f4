// A urlset gzipped as consecutive slices, so that a later version of the file can re-deflate only
// the slices whose URLs changed and reuse the others byte for byte. The file stays ONE gzip member
// (decoders that stop after the first member read all of it): every slice is a raw deflate stream
// of its own (an empty window, so it refers to nothing before it), every slice but the last ends on
// a sync flush (byte-aligned, not final), and the trailer's CRC-32 is combined from the slices'.
// Where each slice's deflate bytes sit, and their CRC and length, is the layout a splice needs.
import { DEFAULT_GZIP_LEVEL } from './gzip';
import { SitemapXmlError } from './sitemap-xml.errors';
import type { FileLimits } from './urlset.writer';
import {
  crc32Combine,
  deflatePart,
  GZIP_HEADER,
  urlsetFrame,
  type DeflatedPart,
  type UrlsetStreamMeta,
} from './urlset-stream.writer';

/** One slice of a sliced gzip file. */
export interface SliceLayout {
  /** Where its deflate bytes start in the file, and how many there are. */
  offset: number;
  size: number;
  /** CRC-32 and length of its uncompressed bytes (the urlset's head in the first, its close in the last). */
  crc: number;
  length: number;
}

export interface SlicedUrlset {
  gzip: Buffer;
  /** Uncompressed bytes of the whole file. */
  byteSize: number;
  slices: SliceLayout[];
}

type SliceOptions = FileLimits & { level?: number; stylesheet?: string | null };

/**
 * Gzips a urlset whose body arrives as consecutive slices (the shard's URLs in id ranges), given
 * in lanes: the slices in order, cut into runs that are read concurrently (zlib runs on libuv's
 * thread pool), each lane's slices one after another (a lane is one database connection). A slice
 * may be empty.
 */
export async function gzipUrlsetSlices(
  lanes: readonly (readonly AsyncIterable<Buffer>[])[],
  meta: UrlsetStreamMeta,
  opts: SliceOptions = {},
): Promise<SlicedUrlset> {
  const count = lanes.reduce((sum, lane) => sum + lane.length, 0);
  if (count === 0) throw new SitemapXmlError('EMPTY_FILE', 'a urlset needs at least one slice');
  const frame = urlsetFrame(meta, opts);
  let next = 0;
  const indexed = lanes.map((lane) => lane.map((body) => ({ index: next++, body })));
  const deflated = await deflateSlices(indexed, count, frame, opts.level);
  return assemble(
    deflated.map((part) => ({ part })),
    meta,
    frame,
  );
}

/**
 * A new version of a file made by `gzipUrlsetSlices` (or by an earlier splice): the slices in
 * `replaced` are deflated from their new bodies, every other slice's deflate bytes are copied from
 * `base` as they are. `meta` states the new file's totals; the result's length must agree with
 * them, which fails loudly when a reused slice no longer holds what the caller thinks. The first
 * slice holds the urlset's head: when the head changed (`baseHead` differs from the new one), the
 * first slice must be among those replaced.
 */
export async function spliceUrlsetSlices(
  base: { gzip: Buffer; slices: readonly SliceLayout[]; head: string },
  replaced: ReadonlyMap<number, AsyncIterable<Buffer>>,
  meta: UrlsetStreamMeta,
  opts: SliceOptions = {},
): Promise<SlicedUrlset> {
  const count = base.slices.length;
  const frame = urlsetFrame(meta, opts);
  if (!replaced.has(0) && !frame.head.equals(Buffer.from(base.head)))
    throw new Error('the urlset head changed: its first slice must be re-rendered');
  for (const index of replaced.keys())
    if (!Number.isInteger(index) || index < 0 || index >= count)
      throw new Error(`slice ${index} is not one of the ${count} slices`);
  const end = base.slices.at(-1);
  if (!end || end.offset + end.size + 8 !== base.gzip.length || base.slices[0]?.offset !== GZIP_HEADER.length)
    throw new Error('the base file does not match its slice layout');

  // One lane: a change re-renders a slice or two, and their bodies may share a connection.
  const ordered = [...replaced].sort(([a], [b]) => a - b).map(([index, body]) => ({ index, body }));
  const deflated = await deflateSlices([ordered], count, frame, opts.level);
  const byIndex = new Map(deflated.map((part) => [part.index, part]));
  return assemble(
    base.slices.map((slice, index) => {
      const part = byIndex.get(index);
      return part ? { part } : { reused: slice, bytes: base.gzip.subarray(slice.offset, slice.offset + slice.size) };
    }),
    meta,
    frame,
  );
}

type IndexedPart = DeflatedPart & { index: number };

/** Deflates the lanes concurrently, the slices of a lane one after another. */
async function deflateSlices(
  lanes: { index: number; body: AsyncIterable<Buffer> }[][],
  count: number,
  frame: { head: Buffer; close: Buffer },
  level = DEFAULT_GZIP_LEVEL,
): Promise<IndexedPart[]> {
  const last = count - 1;
  // Settled, not all: a failed lane must not leave another still reading its connection.
  const settled = await Promise.allSettled(
    lanes.map(async (lane) => {
      const parts: IndexedPart[] = [];
      for (const { index, body } of lane) {
        const part = await deflatePart(body, {
          level,
          head: index === 0 ? frame.head : null,
          tail: index === last ? frame.close : null,
          final: index === last,
        });
        parts.push({ ...part, index });
      }
      return parts;
    }),
  );
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.flatMap((result) => (result as PromiseFulfilledResult<IndexedPart[]>).value);
}

function assemble(
  slices: ({ part: DeflatedPart } | { reused: SliceLayout; bytes: Buffer })[],
  meta: UrlsetStreamMeta,
  frame: { head: Buffer; close: Buffer; byteSize: number },
): SlicedUrlset {
  const chunks: Buffer[] = [GZIP_HEADER];
  const layout: SliceLayout[] = [];
  let offset = GZIP_HEADER.length;
  let crc = 0;
  let length = 0;
  for (const slice of slices) {
    let entry: SliceLayout;
    if ('part' in slice) {
      const size = slice.part.out.reduce((sum, chunk) => sum + chunk.length, 0);
      chunks.push(...slice.part.out);
      entry = { offset, size, crc: slice.part.crc >>> 0, length: slice.part.length };
    } else {
      chunks.push(slice.bytes);
      entry = { ...slice.reused, offset };
    }
    layout.push(entry);
    offset += entry.size;
    crc = crc32Combine(crc, entry.crc, entry.length);
    length += entry.length;
  }
  if (length !== frame.byteSize) {
    const received = length - frame.head.length - frame.close.length;
    throw new SitemapXmlError(
      'FRAGMENT_BYTES_MISMATCH',
      `body declared ${meta.bytes} bytes but ${received} arrived`,
      {},
    );
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  chunks.push(trailer);
  return { gzip: Buffer.concat(chunks), byteSize: length, slices: layout };
}
