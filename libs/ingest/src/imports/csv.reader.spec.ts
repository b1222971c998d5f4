import { describe, expect, it } from 'vitest';
import { readCsv } from './csv.reader';
import type { ImportItem } from './import.types';

async function read(text: string): Promise<ImportItem[]> {
  const out: ImportItem[] = [];
  for await (const item of readCsv(
    (async function* () {
      yield Buffer.from(text);
    })(),
  ))
    out.push(item);
  return out;
}

describe('readCsv', () => {
  it('maps columns to entry fields, counting the header as line 1', async () => {
    const items = await read(
      '\ufeffLoc,lastmod,priority,hreflang,alternate:de,images\nhttps://a.example/en,2026-01-01,0.5,en,https://a.example/de,https://cdn/1.jpg https://cdn/2.jpg\n"https://a.example/x",,,,,\n',
    );
    expect(items).toEqual([
      { line: 1, blank: true },
      {
        line: 2,
        entry: {
          loc: 'https://a.example/en',
          lastmod: '2026-01-01',
          priority: 0.5,
          hreflang: 'en',
          alternates: [{ hreflang: 'de', href: 'https://a.example/de' }],
          images: [{ loc: 'https://cdn/1.jpg' }, { loc: 'https://cdn/2.jpg' }],
        },
      },
      // With alternate columns, a row without any leaves its cluster.
      { line: 3, entry: { loc: 'https://a.example/x', alternates: [] } },
    ]);
  });

  it('reports a malformed record by line and reads on', async () => {
    const items = await read(
      'loc,priority\nhttps://a.example/1,0.1\nhttps://a.example/2,0.2,extra\nhttps://a.example/3,high\n',
    );
    expect(
      items.map((i) => ('issue' in i ? [i.line, i.issue.code] : 'entry' in i ? [i.line, i.entry] : [i.line])),
    ).toEqual([
      [1],
      [2, { loc: 'https://a.example/1', priority: 0.1 }],
      [3, 'INVALID_CSV'],
      // Not a number: handed on for validation to reject as INVALID_PRIORITY.
      [4, { loc: 'https://a.example/3', priority: 'high' }],
    ]);
  });

  it('refuses an unknown or missing column in the header', async () => {
    await expect(read('loc,colour\n')).rejects.toMatchObject({ code: 'INVALID_CSV_HEADER' });
    await expect(read('lastmod\n2026-01-01\n')).rejects.toMatchObject({ code: 'INVALID_CSV_HEADER' });
  });
});
