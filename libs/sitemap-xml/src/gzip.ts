import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/**
 * Level 3, not zlib's default 6. Measured on sitemap XML with varied product URLs (bench/
 * render.bench.ts, Node 20's zlib): level 3 compresses ~390 MB/s, level 6 ~95 MB/s, and
 * level 6 files are only ~9% smaller (12.8x vs 11.7x). At level 6 gzip alone caps a build
 * near 150,000 URLs/s per core; at 3 it is a fraction of the rendering cost. Files are
 * built far more often than bandwidth is an issue for them; pass `level: 6` or `9` where
 * size matters more.
 */
export const DEFAULT_GZIP_LEVEL = 3;

export interface GzipOptions {
  /** zlib level 1–9; defaults to DEFAULT_GZIP_LEVEL. */
  level?: number;
}

/**
 * Compresses one whole file in a single `zlib.gzip` call, which runs on libuv's thread pool
 * and is far faster than feeding a gzip stream many small writes (design.md). Pass the
 * file's parts in order; they are joined once.
 */
export async function gzipFile(parts: readonly (string | Buffer)[], opts: GzipOptions = {}): Promise<Buffer> {
  const input =
    parts.length === 1 && Buffer.isBuffer(parts[0])
      ? parts[0]
      : Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)));
  // 1 MiB output chunks: the default 16 KiB makes a 25 MB file ~150 thread-pool round trips
  // and measured ~20% slower than gzipSync; at 1 MiB the async call matches it.
  return gzipAsync(input, { level: opts.level ?? DEFAULT_GZIP_LEVEL, chunkSize: 1 << 20 });
}
