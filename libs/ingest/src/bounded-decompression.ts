// The one rule for undoing compression on bytes from outside (an upload's body, a fetched
// sitemap): Content-Encoding if declared, then gzip recognised by its magic bytes (a .gz file
// sent with Content-Encoding: gzip is two layers). The bytes after EVERY layer are counted
// against the size limit, and the final bytes against the bytes received times the ratio, so a
// small bomb is refused while it expands, not after. Callers turn the refusal into their code.
import { pipeline, Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** What bytes may expand to: uncompressed bytes, and decompressed bytes per byte received. */
export interface DecompressionLimits {
  maxBytes: number;
  maxRatio: number;
}

/** The ratio is judged only past this much output: a small, very repetitive file is no bomb. */
export const RATIO_FLOOR_BYTES = 8 * 1024 * 1024;

export type DecompressionRefusal = 'unsupported' | 'too_large' | 'ratio' | 'corrupt';

export class DecompressionError extends Error {
  constructor(
    readonly reason: DecompressionRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'DecompressionError';
  }
}

/** Throws `unsupported` at once for an unknown Content-Encoding; the rest when read. */
export function decompressBounded(
  body: AsyncIterable<Buffer | string>,
  contentEncoding: string | undefined,
  limits: DecompressionLimits,
): AsyncIterable<Buffer> {
  const encoding = contentEncoding?.trim().toLowerCase() || 'identity';
  const decoder = encoding === 'identity' ? undefined : DECODERS[encoding];
  if (encoding !== 'identity' && !decoder)
    throw new DecompressionError('unsupported', `Content-Encoding ${encoding} is not supported`);
  let received = 0;
  const counted = (async function* () {
    for await (const chunk of body) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      yield bytes;
    }
  })();
  const bounded = (layer: AsyncIterable<Buffer>) => bound(layer, limits, () => received);
  // Piped only once read: a decoder erroring before anyone listens would be an uncaught error.
  return (async function* () {
    const first: AsyncIterable<Buffer> = decoder
      ? bounded(guard(pipeline(Readable.from(counted), decoder(), ignore)))
      : bounded(counted);
    yield* bounded(sniffGzip(Readable.from(first)));
  })();
}

async function* bound(
  layer: AsyncIterable<Buffer>,
  limits: DecompressionLimits,
  received: () => number,
): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of layer) {
    bytes += chunk.length;
    if (bytes > limits.maxBytes)
      throw new DecompressionError(
        'too_large',
        `larger than ${limits.maxBytes.toLocaleString('en-US')} bytes uncompressed`,
      );
    if (bytes > RATIO_FLOOR_BYTES && bytes > received() * limits.maxRatio) {
      throw new DecompressionError('ratio', `expands more than ${limits.maxRatio} times when decompressed`);
    }
    yield chunk;
  }
}

async function* sniffGzip(body: Readable): AsyncGenerator<Buffer> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  if (first.done) return;
  let head: Buffer = first.value;
  // Two bytes decide; a first chunk of one byte waits for the next.
  while (head.length < 2) {
    const next = await iterator.next();
    if (next.done) break;
    head = Buffer.concat([head, next.value]);
  }
  const all = async function* () {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  };
  if (head[0] === 0x1f && head[1] === 0x8b) yield* guard(pipeline(Readable.from(all()), createGunzip(), ignore));
  else yield* all();
}

/** Errors reach the reader through the pipeline's last stream; the callback only keeps them handled. */
function ignore(): void {}

/** A decompression error is the sender's fault; a source error (connection gone, a limit) passes through. */
async function* guard(decoded: Transform): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of decoded) yield chunk as Buffer;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_') || code === 'ERR_BROTLI_DECOMPRESSION_FAILED' || code === 'ERR_PADDING_1') {
      throw new DecompressionError('corrupt', `could not be decompressed: ${(error as Error).message}`);
    }
    throw error;
  }
}
