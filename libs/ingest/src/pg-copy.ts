// COPY … FROM STDIN in Postgres' binary format: the fastest way to hand rows to Postgres. No
// statement per row, no array literals to parse, and unlike the text format no hex for hashes
// and no timestamps to parse on either side. Rows are encoded into buffers of about 1 MiB
// written with backpressure, so a batch never sits in memory twice.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CopyType = 'uuid' | 'bytea' | 'text' | 'int4' | 'int8' | 'float4' | 'bool' | 'timestamptz' | 'json' | 'jsonb';
export type CopyValue = string | number | boolean | Buffer | Date | null | undefined;

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

class BinaryEncoder {
  /** Every buffer this encoder filled, to hand back once Postgres has read them all. */
  readonly used: Buffer[] = [];
  private buffer = this.take(CHUNK);
  private offset = 0;
  readonly full: Buffer[] = [];
  /** Rows of a batch share their site: its uuid is parsed once. */
  private lastUuid = '';
  private lastUuidBytes = Buffer.alloc(16);

  constructor() {
    SIGNATURE.copy(this.buffer, 0);
    this.buffer.writeInt32BE(0, 11); // flags
    this.buffer.writeInt32BE(0, 15); // header extension length
    this.offset = 19;
  }

  row(types: readonly CopyType[], values: readonly CopyValue[]): void {
    this.ensure(2);
    this.offset = this.buffer.writeInt16BE(types.length, this.offset);
    for (let i = 0; i < types.length; i++) this.field(types[i] as CopyType, values[i]);
  }

  /** The trailer, and what is left. */
  finish(): Buffer {
    this.ensure(2);
    this.offset = this.buffer.writeInt16BE(-1, this.offset);
    return this.buffer.subarray(0, this.offset);
  }

  private field(type: CopyType, value: CopyValue): void {
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

  private ensure(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    if (this.offset > 0) this.full.push(this.buffer.subarray(0, this.offset));
    this.buffer = this.take(bytes);
    this.offset = 0;
  }

  private take(bytes: number): Buffer {
    const buffer = chunkBuffer(bytes);
    this.used.push(buffer);
    return buffer;
  }
}

/** Streams `rows` into `COPY table (columns) FROM STDIN (FORMAT binary)`; `columns` maps name to type. */
export async function copyRows<T>(db: PoolClient, table: string, columns: Readonly<Record<string, CopyType>>, rows: Iterable<T>, toValues: (row: T) => readonly CopyValue[]): Promise<void> {
  const names = Object.keys(columns);
  const types = Object.values(columns);
  const encoder = new BinaryEncoder();
  function* encode(): Generator<Buffer> {
    for (const row of rows) {
      encoder.row(types, toValues(row));
      while (encoder.full.length > 0) yield encoder.full.shift() as Buffer;
    }
    yield encoder.finish();
  }
  await pipeline(Readable.from(encode(), { objectMode: false }), db.query(copyFrom(`COPY ${table} (${names.join(', ')}) FROM STDIN (FORMAT binary)`)));
  // Postgres has answered, so it has read every byte: the buffers are free. Not after a failure,
  // when the socket may still hold some of them.
  for (const buffer of encoder.used) if (buffer.length === CHUNK && spare.length < MAX_SPARE) spare.push(buffer);
}

/**
 * Hashes as one bytea parameter, which node-postgres sends in binary, instead of a bytea[]
 * it would spell out in hex. Use with `hashList(n)` in the SQL, which unpacks it into an array.
 */
export function packHashes(hashes: readonly Buffer[]): Buffer {
  return Buffer.concat(hashes as Buffer[]);
}

/** SQL for an array of 32-byte hashes packed into parameter $n. */
export function hashList(param: number): string {
  return `ARRAY(SELECT substring($${param}::bytea FROM i * 32 + 1 FOR 32) FROM generate_series(0, length($${param}::bytea) / 32 - 1) AS i)`;
}
