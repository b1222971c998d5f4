import { describe, expect, it } from 'vitest';
import { readNdjson } from './ndjson.reader';
import type { ImportItem } from './import.types';

async function read(chunks: (string | Buffer)[], max?: number): Promise<ImportItem[]> {
  const out: ImportItem[] = [];
  for await (const item of readNdjson((async function* () { yield* chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)); })(), max)) out.push(item);
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
    expect(items.map((i) => ('issue' in i ? [i.line, i.issue.code] : [i.line, 'ok']))).toEqual([[1, 'INVALID_JSON'], [2, 'INVALID_UTF8'], [3, 'ok']]);
  });

  it('skips a line past the limit without buffering it and keeps counting', async () => {
    const items = await read(['{"a":1}\n{"x":"', 'y'.repeat(40), 'y'.repeat(40), '"}\n{"b":2}'], 50);
    expect(items.map((i) => ('issue' in i ? [i.line, i.issue.code] : [i.line, 'ok']))).toEqual([[1, 'ok'], [2, 'LINE_TOO_LONG'], [3, 'ok']]);
  });
});
