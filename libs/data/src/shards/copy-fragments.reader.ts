// Reads a shard's fragments with COPY … (FORMAT binary): raw bytes with a small length prefix
// per row, no text escaping and no per-row JavaScript objects. Yields the concatenated
// fragments in blocks of 256 KiB, ready for one gzip stream.
//
// Postgres sends one CopyData message per row. pg-copy-streams cuts each message out of the
// socket's chunks as a Buffer of its own (a million objects for a million URLs, which showed as
// a quarter of a full build's main thread, most of it garbage collection); `FragmentCopyStream`
// replaces only that parse, reading the protocol's framing and the binary COPY rows from the
// socket's chunks in one pass and copying the fragment bytes straight into the output block.
//
// On a TappableSocket (libs/data/src/pg), the copy reads the socket's bytes where they land, in the
// socket's one read buffer, so that a COPY of a shard allocates nothing per read either.
import type { Connection, PoolClient } from 'pg';
import type { ReadableOptions } from 'node:stream';
import { to as copyTo, type CopyToStreamQuery } from 'pg-copy-streams';
import { TappableSocket, type SocketTap } from '../pg/tappable-socket';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const BLOCK = 256 * 1024;

/**
 * Streams the `fragment` column of a shard's live URLs in id order. `published` is an SQL
 * condition on the row (alias `urls`) that keeps it in the file, built by the shards repository
 * from validated patterns only; omitted, every live URL is.
 */
export function readShardFragments(db: PoolClient, shardId: string, published = ''): AsyncIterable<Buffer> {
  if (!/^\d+$/.test(shardId)) throw new Error(`invalid shard id ${shardId}`);
  // COPY takes no parameters; the id is a validated integer, the condition escaped literals.
  return copyJoinedColumn(
    db,
    `COPY (SELECT fragment FROM urls WHERE shard_id = ${shardId} AND deleted_at IS NULL${published} ORDER BY id) TO STDOUT (FORMAT binary)`,
  );
}

/**
 * Blocks that reads have finished with, for the next read of this process to fill. Every new
 * block is memory outside V8's heap, and V8 answers each few MB of new external memory with a
 * full collection of the heap, whether or not the block is already garbage: a build reads a shard
 * as several COPYs (one per slice), and with blocks new per COPY a million URLs allocated ~400 MiB
 * of them, which cost more CPU in the collector than the deflate did. Bounded: a read holds 3–4
 * (the one filling, up to two queued, the one being deflated) and a full build runs 4 at once;
 * 8 MiB is kept, a burst's surplus is left to the collector.
 */
const spareBlocks: Buffer[] = [];
const MAX_SPARE_BLOCKS = 32;

/**
 * Runs `copy`, a COPY (SELECT of one non-null column) TO STDOUT (FORMAT binary), and streams the
 * column's values joined, in blocks of 256 KiB. A block is valid until the consumer asks for
 * the next one (gzipUrlsetStream consumes a block fully before that): it is then reused, by this
 * read or a later one, so reads hold a few blocks, not one per 256 KiB for the garbage collector.
 */
export async function* copyJoinedColumn(db: PoolClient, copy: string): AsyncGenerator<Buffer> {
  for await (const block of db.query(new FragmentCopyStream(copy, spareBlocks)) as AsyncIterable<Buffer>) {
    yield block;
    // The last block is a view of the start of a whole one: hand back the whole one.
    const whole = block.length === BLOCK ? block : wholeBlock(block);
    if (whole && spareBlocks.length < MAX_SPARE_BLOCKS) spareBlocks.push(whole);
  }
}

/** The block a short view was cut from, when it was cut from the start of one of this module's. */
function wholeBlock(view: Buffer): Buffer | null {
  const { buffer, byteOffset } = view;
  return byteOffset === 0 && buffer.byteLength === BLOCK ? Buffer.from(buffer, 0, BLOCK) : null;
}

/**
 * PostgreSQL's binary COPY format for a single non-null column, fed in pieces cut anywhere:
 * the values are joined into blocks of BLOCK bytes, handed to `emit` as they fill (a new
 * buffer each unless the receiver hands blocks back in `spare`).
 */
export class BinaryColumnJoiner {
  private state: 'signature' | 'extension' | 'fields' | 'length' | 'value' | 'done' = 'signature';
  /** Bytes of a fixed-size item (signature, field count, length) that spans two pieces. */
  private readonly scratch = Buffer.alloc(19);
  private scratchUsed = 0;
  private left = 0;
  private block: Buffer;
  private used = 0;

  /** `spare`: blocks handed back by the consumer, used before new ones are allocated. */
  constructor(
    private readonly emit: (block: Buffer) => void,
    private readonly spare: Buffer[] = [],
  ) {
    this.block = this.nextBlock();
  }

  /** Takes `piece[start, end)`. */
  feed(piece: Buffer, start: number, end: number): void {
    let pos = start;
    while (pos < end) {
      switch (this.state) {
        case 'value': {
          const n = Math.min(this.left, end - pos, BLOCK - this.used);
          piece.copy(this.block, this.used, pos, pos + n);
          this.used += n;
          pos += n;
          this.left -= n;
          if (this.used === BLOCK) {
            this.emit(this.block);
            this.block = this.nextBlock();
            this.used = 0;
          }
          if (this.left === 0) this.state = 'fields';
          break;
        }
        case 'extension': {
          const n = Math.min(this.left, end - pos);
          pos += n;
          this.left -= n;
          if (this.left === 0) this.state = 'fields';
          break;
        }
        case 'done':
          throw new Error('data after the binary COPY trailer');
        default: {
          // A fixed-size item: straight from the piece when it holds all of it, else gathered.
          const size = this.state === 'signature' ? 19 : this.state === 'fields' ? 2 : 4;
          let item: Buffer;
          let at: number;
          if (this.scratchUsed === 0 && end - pos >= size) {
            item = piece;
            at = pos;
            pos += size;
          } else {
            const n = Math.min(size - this.scratchUsed, end - pos);
            piece.copy(this.scratch, this.scratchUsed, pos, pos + n);
            this.scratchUsed += n;
            pos += n;
            if (this.scratchUsed < size) break;
            item = this.scratch;
            at = 0;
            this.scratchUsed = 0;
          }
          this.item(item, at);
        }
      }
    }
  }

  /** The last block; throws when the stream stopped before its trailer. */
  end(): Buffer | null {
    if (this.state !== 'done') throw new Error('binary COPY stream ended early');
    return this.used > 0 ? this.block.subarray(0, this.used) : null;
  }

  private nextBlock(): Buffer {
    return this.spare.pop() ?? Buffer.allocUnsafe(BLOCK);
  }

  private item(item: Buffer, at: number): void {
    if (this.state === 'signature') {
      if (!item.subarray(at, at + 11).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
      this.left = item.readUInt32BE(at + 15);
      this.state = this.left > 0 ? 'extension' : 'fields';
    } else if (this.state === 'fields') {
      const fields = item.readInt16BE(at);
      if (fields === -1) this.state = 'done';
      else if (fields !== 1) throw new Error(`expected one column per row, got ${fields}`);
      else this.state = 'length';
    } else {
      const length = item.readInt32BE(at);
      if (length < 0) throw new Error('unexpected NULL fragment');
      this.left = length;
      this.state = length > 0 ? 'value' : 'fields';
    }
  }
}

/** Joins a binary COPY stream's single column, from chunks cut anywhere. */
export async function* concatBinaryCopyColumn(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const ready: Buffer[] = [];
  const joiner = new BinaryColumnJoiner((block) => ready.push(block));
  for await (const chunk of chunks) {
    joiner.feed(chunk, 0, chunk.length);
    while (ready.length > 0) yield ready.shift() as Buffer;
  }
  const last = joiner.end();
  if (last) yield last;
}

// Protocol codes (https://www.postgresql.org/docs/current/protocol-message-formats.html).
const ERROR_RESPONSE = 0x45;
const COPY_DATA = 0x64;
/** Messages that may come before or among CopyData; any other ends the copy. */
const WITHIN_COPY = new Set([0x48 /* CopyOutResponse */, COPY_DATA, 0x53, 0x4e, 0x41]);

/** pg-copy-streams' COPY TO query, down to the members its parse uses (7.x). */
interface CopyToInternals {
  _buffer: { push(chunk: Buffer): void };
  _detach(): void;
  _cleanup(): void;
  _read(size: number): void;
  submit(connection: PgConnection): void;
  handleError(error: Error): void;
  push(chunk: Buffer | null): boolean;
  destroy(error: Error): void;
}

/** What of pg's Connection the copy uses. */
interface PgConnection {
  stream: unknown;
  query(text: string): void;
}

const CopyToQuery = Object.getPrototypeOf(copyTo('')).constructor as new (
  text: string,
  options?: ReadableOptions,
) => CopyToStreamQuery;

/**
 * A COPY TO STDOUT (FORMAT binary) of one non-null column whose readable side gives the values
 * joined, in blocks of 256 KiB. On a TappableSocket it reads the socket's bytes in place (a
 * tap) and hands pg what follows the copy; on any other, pg-copy-streams takes the connection over
 * and hands it back, and only its parse is replaced.
 */
class FragmentCopyStream extends CopyToQuery implements SocketTap {
  /** Where the protocol parse is: a message's code byte, its 4-byte length, or its body. */
  private phase: 'code' | 'length' | 'body' = 'code';
  private code = 0;
  private lengthBytes = 0;
  private remaining = 0;
  private readonly blocks: Buffer[] = [];
  private readonly joiner: BinaryColumnJoiner;
  private failure: Error | null = null;
  /** The socket this copy taps, while it does. */
  private socket: TappableSocket | null = null;

  constructor(text: string, spare: Buffer[]) {
    // Blocks as objects, two queued at most: a byte stream hands its reader whatever is queued
    // joined into one new buffer, a copy whose blocks go to the collector instead of the spares
    // (a 1M build made 67–142 new blocks in byte mode, 16 in object mode).
    super(text, { objectMode: true, highWaterMark: 2 });
    this.joiner = new BinaryColumnJoiner((block) => this.blocks.push(block), spare);
  }

  // Called by pg when the query's turn comes on the connection.
  override submit(pg: Connection): void {
    const connection = pg as unknown as PgConnection;
    if (!(connection.stream instanceof TappableSocket)) {
      (CopyToQuery.prototype as unknown as CopyToInternals).submit.call(this, connection);
      return;
    }
    this.socket = connection.stream;
    this.socket.setTap(this);
    connection.query(this.text);
  }

  // The consumer wants more: a tapped socket paused by backpressure reads on.
  override _read(size: number): void {
    if (this.socket) this.socket.resumeReading();
    else (CopyToQuery.prototype as unknown as CopyToInternals)._read.call(this, size);
  }

  // Called by pg when the query fails (the server's error, or the connection's).
  handleError(error: Error): void {
    this.socket?.untap(this, null);
    this.socket = null;
    (CopyToQuery.prototype as unknown as CopyToInternals).handleError.call(this, error);
  }

  // The tapped socket's bytes, valid during the call only.
  receive(bytes: Buffer): boolean {
    const readOn = this.consume(bytes, (rest) => {
      this.socket?.untap(this, rest);
      this.socket = null;
    });
    // Once untapped, the socket reads on for pg; once destroyed, nobody reads the blocks.
    return this.socket === null || this.destroyed || readOn !== false;
  }

  // A reader that stops early (a failed deflate) destroys the stream: the copy is then read to
  // its end and dropped, so that the connection answers its next query (COMMIT, release).
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket?.resumeReading();
    super._destroy(error, callback);
  }

  // Called by pg-copy-streams with each chunk read from the socket; returns whether to read on.
  _parse(chunk: Buffer): boolean | undefined {
    const self = this as unknown as CopyToInternals;
    return this.consume(chunk, (rest) => {
      if (rest) self._buffer.push(rest);
      self._detach();
    });
  }

  /**
   * Parses `chunk`; when the copy ends in it (or the server reports an error), `handOver` gives
   * pg the rest of the chunk (from the error's first byte, or past the copy). Returns whether to
   * read on (false: the consumer has blocks enough; undefined: the copy failed).
   */
  private consume(chunk: Buffer, handOver: (rest: Buffer | null) => void): boolean | undefined {
    const self = this as unknown as CopyToInternals;
    let pos = 0;
    let done = false;
    while (!done && (pos < chunk.length || (this.phase === 'body' && this.remaining === 0))) {
      if (this.phase === 'code') {
        this.code = chunk[pos] as number;
        if (this.code === ERROR_RESPONSE) {
          // pg parses the error and fails the query with it.
          handOver(chunk.subarray(pos));
          return undefined;
        }
        pos += 1;
        this.phase = 'length';
        this.lengthBytes = 0;
        this.remaining = 0;
      } else if (this.phase === 'length') {
        // Big-endian, and it counts itself.
        this.remaining = this.remaining * 256 + (chunk[pos] as number);
        pos += 1;
        this.lengthBytes += 1;
        if (this.lengthBytes === 4) {
          this.remaining -= 4;
          this.phase = 'body';
        }
      } else {
        const n = Math.min(this.remaining, chunk.length - pos);
        if (this.code === COPY_DATA && n > 0 && !this.failure) {
          try {
            this.joiner.feed(chunk, pos, pos + n);
          } catch (error) {
            // Read the copy to its end all the same, so that the connection stays usable.
            this.failure = error as Error;
          }
        }
        pos += n;
        this.remaining -= n;
        if (this.remaining === 0) {
          this.phase = 'code';
          done = !WITHIN_COPY.has(this.code);
        }
      }
    }
    let drained = true;
    for (const block of this.blocks.splice(0)) drained = self.push(block) && drained;
    if (!done) return drained;

    // What follows the copy (CommandComplete, ReadyForQuery) is pg's to read.
    handOver(pos < chunk.length ? chunk.subarray(pos) : null);
    try {
      if (this.failure) throw this.failure;
      const last = this.joiner.end();
      if (last) self.push(last);
      self.push(null);
    } catch (error) {
      self.destroy(error as Error);
    }
    self._cleanup();
    return drained;
  }
}
