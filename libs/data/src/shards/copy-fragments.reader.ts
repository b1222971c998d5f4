// Reads a shard's fragments with COPY … (FORMAT binary): raw bytes with a small length prefix
// per row, no text escaping and no per-row JavaScript objects. Yields the concatenated
// fragments in blocks of about 1 MiB, ready for one gzip stream. The block buffer is reused:
// each yielded block is valid until the consumer asks for the next one (gzipUrlsetStream
// consumes a block fully before that), so a 50 MiB shard costs one 1 MiB buffer, not fifty.
import type { PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const BLOCK = 1 << 20;

/**
 * Streams the `fragment` column of a shard's live URLs in id order. `published` is an SQL
 * condition on the row (alias `urls`) that keeps it in the file, built by the shards repository
 * from validated patterns only; omitted, every live URL is.
 */
export function readShardFragments(db: PoolClient, shardId: string, published = ''): AsyncGenerator<Buffer> {
  if (!/^\d+$/.test(shardId)) throw new Error(`invalid shard id ${shardId}`);
  // COPY takes no parameters; the id is a validated integer, the condition escaped literals.
  const stream = db.query(
    copyTo(
      `COPY (SELECT fragment FROM urls WHERE shard_id = ${shardId} AND deleted_at IS NULL${published} ORDER BY id) TO STDOUT (FORMAT binary)`,
    ),
  );
  return concatBinaryCopyColumn(stream);
}

/** Parses PostgreSQL's binary COPY format for a single non-null column and joins the values. */
export async function* concatBinaryCopyColumn(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  let headerRead = false;
  let trailerSeen = false;
  let fieldLeft = 0;
  const block = Buffer.allocUnsafe(BLOCK);
  let used = 0;

  for await (const chunk of chunks) {
    const buf: Buffer = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    let pos = 0;
    while (pos < buf.length && !trailerSeen) {
      if (!headerRead) {
        if (buf.length - pos < 19) break;
        if (!buf.subarray(pos, pos + 11).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
        const extension = buf.readUInt32BE(pos + 15);
        if (buf.length - pos < 19 + extension) break;
        pos += 19 + extension;
        headerRead = true;
      } else if (fieldLeft > 0) {
        const n = Math.min(fieldLeft, buf.length - pos, BLOCK - used);
        buf.copy(block, used, pos, pos + n);
        used += n;
        pos += n;
        fieldLeft -= n;
        if (used === BLOCK) {
          yield block;
          used = 0;
        }
      } else {
        if (buf.length - pos < 2) break;
        const fields = buf.readInt16BE(pos);
        if (fields === -1) {
          trailerSeen = true;
          pos += 2;
          break;
        }
        if (fields !== 1) throw new Error(`expected one column per row, got ${fields}`);
        if (buf.length - pos < 6) break;
        const length = buf.readInt32BE(pos + 2);
        if (length < 0) throw new Error('unexpected NULL fragment');
        fieldLeft = length;
        pos += 6;
      }
    }
    pending = Buffer.from(buf.subarray(pos));
  }
  if (!trailerSeen || fieldLeft > 0) throw new Error('binary COPY stream ended early');
  if (used > 0) yield block.subarray(0, used);
}
