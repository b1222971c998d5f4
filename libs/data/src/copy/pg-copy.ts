// COPY … FROM STDIN in Postgres' binary format: the fastest way to hand rows to Postgres. No
// statement per row, no array literals to parse, and unlike the text format no hex for hashes
// and no timestamps to parse on either side. Rows are encoded into buffers of about 1 MiB, the
// first 4 MiB before the COPY starts and the rest as Postgres reads. A row's leading fields can
// also be encoded ahead of its COPY (`FieldArena`), by a bulk import while Postgres is busy.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ClientBase } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { LOC_HASH_BYTES } from '@sitemaps/domain';

export type CopyType =
  'uuid' | 'bytea' | 'text' | 'int4' | 'int8' | 'float4' | 'bool' | 'timestamptz' | 'json' | 'jsonb';
export type CopyValue = string | number | boolean | Buffer | Date | null | undefined;

/** The first `count` fields of a row, encoded ahead (`FieldArena`). */
export interface EncodedFields {
  readonly bytes: Buffer;
  readonly count: number;
}

/** A row to copy: a value per column, or its leading columns encoded ahead and values for the rest. */
export type CopyRow = readonly CopyValue[] | { readonly encoded: EncodedFields; readonly rest: readonly CopyValue[] };

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const CHUNK = 1024 * 1024;
/** Milliseconds between the Unix epoch and Postgres' (2000-01-01). */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_32 = 2 ** 32;

/**
 * Chunk buffers of finished COPYs, reused: a bulk import encodes about 1 KB per row, and a fresh
 * megabyte of external memory every thousand rows made V8 run extra full collections.
 */
const spare: Buffer[] = [];
const MAX_SPARE = 8;

function chunkBuffer(bytes: number): Buffer {
  return bytes <= CHUNK && spare.length > 0 ? (spare.pop() as Buffer) : Buffer.allocUnsafe(Math.max(CHUNK, bytes));
}

/** Writes fields in COPY's binary format into a buffer; subclasses decide where the next one comes from. */
abstract class FieldWriter {
  protected buffer: Buffer;
  protected offset = 0;
  /** Rows of a batch share their site: its uuid is parsed once. */
  private lastUuid = '';
  private lastUuidBytes = Buffer.alloc(16);

  constructor(first: Buffer) {
    this.buffer = first;
  }

  /** Makes room for `bytes` more, in this buffer or a new one. */
  protected abstract grow(bytes: number): void;

  protected ensure(bytes: number): void {
    if (this.offset + bytes > this.buffer.length) this.grow(bytes);
  }

  protected raw(bytes: Buffer): void {
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.offset);
    this.offset += bytes.length;
  }

  protected field(type: CopyType, value: CopyValue): void {
    if (value === null || value === undefined) {
      this.ensure(4);
      this.offset = this.buffer.writeInt32BE(-1, this.offset);
      return;
    }
    switch (type) {
      case 'text':
      case 'json': // json's binary form is its text
      case 'jsonb': {
        const text = typeof value === 'string' ? value : String(value);
        const version = type === 'jsonb' ? 1 : 0;
        this.ensure(4 + version + text.length * 3);
        const start = this.offset + 4;
        if (version) this.buffer[start] = 1;
        const written = this.buffer.write(text, start + version, 'utf8');
        this.buffer.writeInt32BE(written + version, this.offset);
        this.offset = start + version + written;
        return;
      }
      case 'bytea': {
        const bytes = value as Buffer;
        this.ensure(4 + bytes.length);
        this.offset = this.buffer.writeInt32BE(bytes.length, this.offset);
        this.buffer.set(bytes, this.offset);
        this.offset += bytes.length;
        return;
      }
      case 'uuid': {
        if (value !== this.lastUuid) {
          this.lastUuid = value as string;
          this.lastUuidBytes = Buffer.from((value as string).replace(/-/g, ''), 'hex');
        }
        this.ensure(20);
        this.offset = this.buffer.writeInt32BE(16, this.offset);
        this.buffer.set(this.lastUuidBytes, this.offset);
        this.offset += 16;
        return;
      }
      case 'int4':
        this.ensure(8);
        this.offset = this.buffer.writeInt32BE(4, this.offset);
        this.offset = this.buffer.writeInt32BE(value as number, this.offset);
        return;
      case 'int8':
        // Ids stay far below 2^53: a double holds them exactly, no BigInt needed.
        this.ensure(12);
        this.offset = this.buffer.writeInt32BE(8, this.offset);
        this.int64(Number(value));
        return;
      case 'float4':
        this.ensure(8);
        this.offset = this.buffer.writeInt32BE(4, this.offset);
        this.offset = this.buffer.writeFloatBE(value as number, this.offset);
        return;
      case 'bool':
        this.ensure(5);
        this.offset = this.buffer.writeInt32BE(1, this.offset);
        this.buffer[this.offset++] = value ? 1 : 0;
        return;
      case 'timestamptz':
        this.ensure(12);
        this.offset = this.buffer.writeInt32BE(8, this.offset);
        this.int64(((value as Date).getTime() - PG_EPOCH_MS) * 1000);
        return;
    }
  }

  /** A whole number below 2^53 in magnitude, as a big-endian int64. */
  private int64(value: number): void {
    const high = Math.floor(value / TWO_32);
    this.offset = this.buffer.writeInt32BE(high, this.offset);
    this.offset = this.buffer.writeUInt32BE(value - high * TWO_32, this.offset);
  }
}

/** A COPY's whole stream: signature, rows, trailer, in chunks of about 1 MiB (`full`, then `finish`). */
class BinaryEncoder extends FieldWriter {
  /** Every buffer this encoder filled, to hand back once Postgres has read them all. */
  readonly used: Buffer[];
  readonly full: Buffer[] = [];

  constructor() {
    const first = chunkBuffer(CHUNK);
    super(first);
    this.used = [first];
    SIGNATURE.copy(this.buffer, 0);
    this.buffer.writeInt32BE(0, 11); // flags
    this.buffer.writeInt32BE(0, 15); // header extension length
    this.offset = 19;
  }

  row(types: readonly CopyType[], row: CopyRow): void {
    this.ensure(2);
    this.offset = this.buffer.writeInt16BE(types.length, this.offset);
    if ('encoded' in row) {
      this.raw(row.encoded.bytes);
      for (let i = row.encoded.count; i < types.length; i++)
        this.field(types[i] as CopyType, row.rest[i - row.encoded.count]);
    } else {
      for (let i = 0; i < types.length; i++) this.field(types[i] as CopyType, row[i]);
    }
  }

  /** The trailer, and what is left. */
  finish(): Buffer {
    this.ensure(2);
    this.offset = this.buffer.writeInt16BE(-1, this.offset);
    return this.buffer.subarray(0, this.offset);
  }

  protected grow(bytes: number): void {
    if (this.offset > 0) this.full.push(this.buffer.subarray(0, this.offset));
    this.buffer = chunkBuffer(bytes);
    this.used.push(this.buffer);
    this.offset = 0;
  }
}

/**
 * Memory for rows' leading fields encoded ahead of their COPY (`CopyRow`), in blocks kept for
 * reuse: `clear` voids every row encoded so far and starts over in the same blocks.
 */
export class FieldArena extends FieldWriter {
  private static readonly BLOCK = 256 * 1024;
  private readonly blocks: Buffer[];
  private block = 0;

  constructor() {
    const first = Buffer.allocUnsafe(FieldArena.BLOCK);
    super(first);
    this.blocks = [first];
  }

  encode(types: readonly CopyType[], values: readonly CopyValue[]): EncodedFields {
    // Room for the whole run up front, so it never spans two blocks.
    this.ensure(maxEncodedBytes(types, values));
    const start = this.offset;
    for (let i = 0; i < types.length; i++) this.field(types[i] as CopyType, values[i]);
    return { bytes: this.buffer.subarray(start, this.offset), count: types.length };
  }

  clear(): void {
    this.block = 0;
    this.buffer = this.blocks[0] as Buffer;
    this.offset = 0;
  }

  protected grow(bytes: number): void {
    this.offset = 0;
    // A row larger than a block gets a buffer of its own, not kept.
    if (bytes > FieldArena.BLOCK) {
      this.buffer = Buffer.allocUnsafe(bytes);
      return;
    }
    this.block += 1;
    if (this.block === this.blocks.length) this.blocks.push(Buffer.allocUnsafe(FieldArena.BLOCK));
    this.buffer = this.blocks[this.block] as Buffer;
  }
}

/** An upper bound of what `values` encode to: text at 3 bytes a UTF-16 unit, plus lengths. */
function maxEncodedBytes(types: readonly CopyType[], values: readonly CopyValue[]): number {
  let bytes = 0;
  for (let i = 0; i < types.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) bytes += 4;
    else if (typeof value === 'string') bytes += 5 + value.length * 3;
    else if (Buffer.isBuffer(value)) bytes += 4 + value.length;
    else bytes += 20;
  }
  return bytes;
}

/**
 * Encoded before the COPY starts, up to this much: Postgres then reads at its own pace instead of
 * waiting for an event loop that is also busy with the next batch. Anything beyond is encoded as
 * Postgres reads, with backpressure.
 */
const EAGER_BYTES = 4 * CHUNK;

/** What one COPY writes: `rows` into `table`, each turned into a value per column by `toRow`. */
export interface RowCopy<T> {
  table: string;
  /** Column name to type, in the order `toRow` gives the values. */
  columns: Readonly<Record<string, CopyType>>;
  rows: Iterable<T>;
  toRow: (row: T) => CopyRow;
}

/** Streams the rows into `COPY table (columns) FROM STDIN (FORMAT binary)`. */
export async function copyRows<T>(db: ClientBase, copy: RowCopy<T>): Promise<void> {
  const { table, columns, rows, toRow } = copy;
  const names = Object.keys(columns);
  const types = Object.values(columns);
  const encoder = new BinaryEncoder();
  const iterator = rows[Symbol.iterator]();
  let next = iterator.next();
  for (let eager = 0; !next.done && eager < EAGER_BYTES; next = iterator.next()) {
    encoder.row(types, toRow(next.value));
    eager = encoder.full.length * CHUNK;
  }
  function* encode(): Generator<Buffer> {
    for (; !next.done; next = iterator.next()) {
      while (encoder.full.length > 0) yield encoder.full.shift() as Buffer;
      encoder.row(types, toRow(next.value));
    }
    while (encoder.full.length > 0) yield encoder.full.shift() as Buffer;
    yield encoder.finish();
  }
  await pipeline(
    Readable.from(encode(), { objectMode: false }),
    db.query(copyFrom(`COPY ${table} (${names.join(', ')}) FROM STDIN (FORMAT binary)`)),
  );
  // Postgres has answered, so it has read every byte: the buffers are free. Not after a failure,
  // when the socket may still hold some of them.
  for (const buffer of encoder.used) if (buffer.length === CHUNK && spare.length < MAX_SPARE) spare.push(buffer);
}

/**
 * Hashes as one bytea parameter, which node-postgres sends in binary, instead of a bytea[]
 * it would spell out in hex. Use with `hashList(n)` in the SQL, which unpacks it into an array.
 */
export function packHashes(hashes: readonly Buffer[]): Buffer {
  return Buffer.concat(hashes);
}

/** SQL for an array of loc hashes (`LOC_HASH_BYTES` each) packed into parameter $n. */
export function hashList(param: number): string {
  return `ARRAY(SELECT substring($${param}::bytea FROM i * ${LOC_HASH_BYTES} + 1 FOR ${LOC_HASH_BYTES}) FROM generate_series(0, length($${param}::bytea) / ${LOC_HASH_BYTES} - 1) AS i)`;
}

/** SQL for the loc hash of a text expression, as `locHash` computes it. */
export function sqlLocHash(text: string): string {
  return `substring(sha256(convert_to(${text}, 'UTF8')) FROM 1 FOR ${LOC_HASH_BYTES})`;
}
