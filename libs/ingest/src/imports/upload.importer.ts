// An upload streamed into an import: decompressed if it is compressed, split into lines, parsed
// and pushed batch by batch. Nothing holds more than a batch, whatever the upload's size.
import type { Readable } from 'node:stream';
import { DomainError } from '@sitemaps/domain';
import { DecompressionError, decompressBounded, type DecompressionLimits } from '../bounded-decompression';
import type { IngestSite } from '../url-entry.preparer';
import { readCsv } from './csv.reader';
import type { ImportFormat, ImportItem, ImportMode, ImportProgress } from './import.types';
import { readNdjson } from './ndjson.reader';
import type { ImportSession, UrlImportService } from './url-import.service';

const YIELD_EVERY = 25;

/** What an upload may expand to: uncompressed bytes, and decompressed bytes per byte received. */
export type UploadLimits = DecompressionLimits;

/**
 * The body as sent, undone (see decompressBounded), with the refusals in the upload's codes:
 * the limits are IMPORT_MAX_TOTAL_BYTES and IMPORT_MAX_COMPRESSION_RATIO.
 */
export function decodeBody(
  body: Readable,
  contentEncoding: string | undefined,
  limits: UploadLimits,
): AsyncIterable<Buffer> {
  let decoded: AsyncIterable<Buffer>;
  try {
    decoded = decompressBounded(body, contentEncoding, limits);
  } catch (error) {
    throw uploadError(error);
  }
  return (async function* () {
    try {
      yield* decoded;
    } catch (error) {
      throw uploadError(error);
    }
  })();
}

function uploadError(error: unknown): unknown {
  if (!(error instanceof DecompressionError)) return error;
  switch (error.reason) {
    case 'unsupported':
      return new DomainError(
        'invalid',
        'UNSUPPORTED_CONTENT_ENCODING',
        `${error.message}: send gzip, deflate, br or none`,
      );
    case 'too_large':
      return new DomainError(
        'too_large',
        'UPLOAD_TOO_LARGE',
        `the upload is ${error.message} (IMPORT_MAX_TOTAL_BYTES)`,
      );
    case 'ratio':
      return new DomainError(
        'too_large',
        'COMPRESSION_RATIO_TOO_HIGH',
        `the upload ${error.message} (IMPORT_MAX_COMPRESSION_RATIO)`,
      );
    case 'corrupt':
      return new DomainError('invalid', 'INVALID_COMPRESSION', `the body ${error.message}`);
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
    const reason = gone
      ? new DomainError(
          'invalid',
          'UPLOAD_ABORTED',
          'the upload stopped before its end; what was read before is stored',
        )
      : error;
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
