import { describe, expect, it } from 'vitest';
import { readNdjson } from './ndjson.reader';
import type { ImportItem } from './import.types';

async function read(chunks: (string | Buffer)[], max?: number): Promise<ImportItem[]> {
  const out: ImportItem[] = [];
  for await (const item of readNdjson(
    (async function* () {
      yield* chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c));
    })(),
    max,
  ))
    out.push(item);
  return out;
}

describe('readNdjson', () => {
  it('numbers lines from 1 across chunk boundaries, CRLF and blank lines included', async () => {
    expect(await read(['{"a":1}\r\n\n{"b"', ':2}\n{"c":3}'])).toEqual([
      { line: 1, entry: { a: 1 } },
      { line: 2, blank: true },
      { line: 3, entry: { b: 2 } },
      { line: 4, entry: { c: 3 } },
    ]);
  });

  it('reports bad JSON and invalid UTF-8 by line and goes on', async () => {
    const items = await read(['{"a":\n', Buffer.from([0x7b, 0xff, 0x7d, 0x0a]), '{"ok":true}\n']);
    expect(items.map((i) => ('issue' in i ? [i.line, i.issue.code] : [i.line, 'ok']))).toEqual([
      [1, 'INVALID_JSON'],
      [2, 'INVALID_UTF8'],
      [3, 'ok'],
    ]);
  });

  it('skips a line past the limit without buffering it and keeps counting', async () => {
    const items = await read(['{"a":1}\n{"x":"', 'y'.repeat(40), 'y'.repeat(40), '"}\n{"b":2}'], 50);
    expect(items.map((i) => ('issue' in i ? [i.line, i.issue.code] : [i.line, 'ok']))).toEqual([
      [1, 'ok'],
      [2, 'LINE_TOO_LONG'],
      [3, 'ok'],
    ]);
  });

  it('reads the same items however the bytes are cut into chunks', async () => {
    // ASCII, multi-byte UTF-8, invalid UTF-8, CRLF, blank and bad-JSON lines, cut at every kind
    // of place (mid-character included): each way must give what one line at a time gives.
    const lines = [
      Buffer.from('{"loc":"https://a.example.com/1"}'),
      Buffer.from('{"loc":"https://a.example.com/é","title":"日本"}\r'),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      Buffer.from(''),
      Buffer.from('  \r'),
      Buffer.from('{"a":'),
      Buffer.from('{"emoji":"😀"}'),
      Buffer.from('{"last":true}'),
    ];
    const bytes = Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')]));
    const oneByOne = await read(lines.map((line) => Buffer.concat([line, Buffer.from('\n')])));
    expect(oneByOne.map((item) => ('issue' in item ? item.issue.code : 'blank' in item ? 'blank' : 'entry'))).toEqual([
      'entry',
      'entry',
      'INVALID_UTF8',
      'blank',
      'blank',
      'INVALID_JSON',
      'entry',
      'entry',
    ]);
    let seed = 5;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return (seed >>> 8) % n;
    };
    for (let trial = 0; trial < 300; trial++) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length;) {
        const size = 1 + next(trial % 3 === 0 ? 4 : 60);
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      expect(await read(chunks)).toEqual(oneByOne);
    }
    expect(await read([bytes])).toEqual(oneByOne);
  });
});
