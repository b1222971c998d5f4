import { describe, expect, it } from 'vitest';
import { concatBinaryCopyColumn } from './copy-fragments.reader';

/** PostgreSQL's binary COPY encoding of one text column. */
function encode(values: string[]): Buffer {
  const header = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
  const rows = values.map((value) => {
    const data = Buffer.from(value);
    const prefix = Buffer.alloc(6);
    prefix.writeInt16BE(1, 0);
    prefix.writeInt32BE(data.length, 2);
    return Buffer.concat([prefix, data]);
  });
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  return Buffer.concat([header, ...rows, trailer]);
}

async function collect(chunks: Buffer[]): Promise<string> {
  async function* source() {
    for (const chunk of chunks) yield chunk;
  }
  const out: Buffer[] = [];
  // A block is valid until the next one is asked for: keep copies.
  for await (const block of concatBinaryCopyColumn(source())) out.push(Buffer.from(block));
  return Buffer.concat(out).toString();
}

describe('concatBinaryCopyColumn', () => {
  const values = [
    '<url><loc>https://a.com/1</loc></url>',
    '<url><loc>https://a.com/ü\\n\t</loc></url>',
    '',
    'x'.repeat(3_000_000),
  ];
  const encoded = encode(values);

  it('joins the column values, escapes and all, whatever the chunk boundaries', async () => {
    for (const size of [1, 2, 5, 7, 64, 65_536, encoded.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < encoded.length; at += size) chunks.push(encoded.subarray(at, at + size));
      // 1-byte chunks over 3 MB are slow; the small sizes use a short input.
      if (size < 64) expect(await collect(chunkOf(encode(values.slice(0, 3)), size))).toBe(values.slice(0, 3).join(''));
      else expect(await collect(chunks)).toBe(values.join(''));
    }
  });

  it('refuses a stream that ends before its trailer', async () => {
    await expect(collect([encoded.subarray(0, encoded.length - 10)])).rejects.toThrow(/ended early/);
  });
});

function chunkOf(buffer: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < buffer.length; at += size) chunks.push(buffer.subarray(at, at + size));
  return chunks;
}
