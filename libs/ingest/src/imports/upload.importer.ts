// An upload streamed into an import: decompressed if it is compressed, split into lines, parsed
// and pushed batch by batch. Nothing holds more than a batch, whatever the upload's size.
import { pipeline, Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { DomainError } from '@sitemaps/domain';
import type { IngestSite } from '../url-entry.preparer';
import { readCsv } from './csv.reader';
import type { ImportFormat, ImportItem, ImportMode, ImportProgress } from './import.types';
import { readNdjson } from './ndjson.reader';
import type { ImportSession, UrlImportService } from './url-import.service';

const YIELD_EVERY = 25;
const DECODERS: Record<string, () => Transform> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress };

/** What an upload may expand to: uncompressed bytes, and decompressed bytes per byte received. */
export interface UploadLimits {
  maxBytes: number;
  maxRatio: number;
}

/** The ratio is judged only past this much output: a small, very repetitive file is no bomb. */
const RATIO_FLOOR_BYTES = 8 * 1024 * 1024;

/**
 * The body as sent, undone: Content-Encoding if declared, then gzip recognised by its magic bytes
 * (a .gz file sent with Content-Encoding: gzip is two layers). The bytes after each layer are
 * counted against the limits, so a small bomb is refused while it expands, not after.
 */
export function decodeBody(body: Readable, contentEncoding: string | undefined, limits: UploadLimits): AsyncIterable<Buffer> {
  const encoding = contentEncoding?.trim().toLowerCase() || 'identity';
  const decoder = encoding === 'identity' ? undefined : DECODERS[encoding];
  if (encoding !== 'identity' && !decoder) throw new DomainError('invalid', 'UNSUPPORTED_CONTENT_ENCODING', `Content-Encoding ${encoding} is not supported: send gzip, deflate, br or none`);
  let received = 0;
  const counted = (async function* () {
    for await (const chunk of body) {
      received += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  })();
  const bounded = (layer: AsyncIterable<Buffer>) => bound(layer, limits, () => received);
  // Piped only once read: a decoder erroring before anyone listens would be an uncaught error.
  return (async function* () {
    const first: AsyncIterable<Buffer> = decoder ? bounded(guard(pipeline(Readable.from(counted), decoder(), ignore))) : counted;
    yield* bounded(sniffGzip(Readable.from(first)));
  })();
}

async function* bound(layer: AsyncIterable<Buffer>, limits: UploadLimits, received: () => number): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of layer) {
    bytes += chunk.length;
    if (bytes > limits.maxBytes) {
      throw new DomainError('too_large', 'UPLOAD_TOO_LARGE', `the upload is larger than ${limits.maxBytes.toLocaleString('en-US')} bytes uncompressed (IMPORT_MAX_TOTAL_BYTES)`);
    }
    if (bytes > RATIO_FLOOR_BYTES && bytes > received() * limits.maxRatio) {
      throw new DomainError('too_large', 'COMPRESSION_RATIO_TOO_HIGH', `the upload expands more than ${limits.maxRatio} times when decompressed (IMPORT_MAX_COMPRESSION_RATIO)`);
    }
    yield chunk;
  }
}

async function* sniffGzip(body: Readable): AsyncGenerator<Buffer> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  if (first.done) return;
  const all = async function* () {
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  };
  if (first.value[0] === 0x1f && first.value[1] === 0x8b) yield* guard(pipeline(Readable.from(all()), createGunzip(), ignore));
  else yield* all();
}

/** Errors reach the reader through the pipeline's last stream; the callback only keeps them handled. */
function ignore(): void {}

/** A decompression error is the client's fault (400); a source error (client gone) passes through. */
async function* guard(decoded: Transform): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of decoded) yield chunk as Buffer;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_') || code === 'ERR_BROTLI_DECOMPRESSION_FAILED' || code === 'ERR_PADDING_1') {
      throw new DomainError('invalid', 'INVALID_COMPRESSION', `the body could not be decompressed: ${(error as Error).message}`);
    }
    throw error;
  }
}

export function readerFor(format: ImportFormat, body: AsyncIterable<Buffer>): AsyncIterable<ImportItem> {
  if (format === 'csv') return readCsv(body);
  if (format === 'ndjson') return readNdjson(body);
  throw new DomainError('invalid', 'UNSUPPORTED_FORMAT', `format ${format} cannot be uploaded`);
}

/** Pushes every item of `items` into the session and completes it; a failure fails the import. */
export async function drainInto(session: ImportSession, items: AsyncIterable<ImportItem>): Promise<ImportProgress> {
  let sinceYield = 0;
  try {
    for await (const item of items) {
      const wait = session.push(item);
      if (wait) await wait;
      // Parsing runs in microtasks, which starve I/O: let the batch in flight hear from Postgres.
      if (++sinceYield === YIELD_EVERY) {
        sinceYield = 0;
        await new Promise(setImmediate);
      }
    }
    return await session.complete();
  } catch (error) {
    const gone = clientGone(error);
    const reason = gone ? new DomainError('invalid', 'UPLOAD_ABORTED', 'the upload stopped before its end; what was read before is stored') : error;
    // A client that went away (or went quiet past the idle timeout) keeps every line it sent.
    await session.fail(reason, { keepPending: gone });
    throw reason;
  }
}

/** The client closed the connection mid-body: its fault, not the server's. */
function clientGone(error: unknown): boolean {
  const { code, message } = error as NodeJS.ErrnoException;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || message === 'aborted';
}

export async function importUpload(
  imports: UrlImportService,
  site: IngestSite,
  upload: { format: ImportFormat; mode: ImportMode; body: Readable; contentEncoding: string | undefined },
  limits: UploadLimits,
): Promise<ImportProgress> {
  // Refuses an unknown encoding or format before an import exists.
  const items = readerFor(upload.format, decodeBody(upload.body, upload.contentEncoding, limits));
  const session = await imports.start(site, { source: 'upload', format: upload.format, mode: upload.mode });
  return drainInto(session, items);
}
