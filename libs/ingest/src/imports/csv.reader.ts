// CSV with a header row (line 1). Columns, case-insensitive, any order, only `loc` required:
//
//   loc, lastmod, changefreq, priority, section   the entry's fields
//   hreflang                                       the URL's own language in its cluster
//   alternate:<hreflang>                           one column per language: that variant's URL
//   images                                         image URLs separated by spaces
//
// An empty cell is an absent field. When the file has alternate columns, each row states its
// whole cluster: a row with none filled leaves its cluster, and a row with some needs its own
// language (the `hreflang` column, or its loc in one of the alternate columns). Records are
// numbered by the line they end on; a malformed record is reported and parsing goes on.
import { parse, type CsvError } from 'csv-parse';
import { Readable } from 'node:stream';
import { DomainError } from '@sitemaps/domain';
import { MAX_LINE_BYTES } from './ndjson.reader';
import type { ImportItem } from './import.types';

const FIELDS = new Set(['loc', 'lastmod', 'changefreq', 'priority', 'section', 'hreflang', 'images']);
const ALTERNATE = 'alternate:';

type Column = { kind: 'field'; name: string } | { kind: 'alternate'; hreflang: string };

export async function* readCsv(input: AsyncIterable<Buffer | string>): AsyncGenerator<ImportItem> {
  const skipped: ImportItem[] = [];
  const parser = Readable.from(input).pipe(
    parse({
      bom: true,
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      max_record_size: MAX_LINE_BYTES,
      on_skip: (error: CsvError | undefined) => {
        if (error)
          skipped.push({
            line: Number(error.lines) || 0,
            issue: { code: 'INVALID_CSV', field: '', message: error.message },
          });
      },
    }),
  );
  let columns: Column[] | undefined;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    // The parser reports a bad record as it reads ahead: hand it on in line order.
    while (skipped[0] && skipped[0].line < info.lines) yield skipped.shift() as ImportItem;
    if (!columns) {
      columns = parseHeader(record);
      yield { line: info.lines, blank: true };
      continue;
    }
    yield { line: info.lines, entry: toEntry(columns, record) };
  }
  yield* skipped.splice(0);
}

function parseHeader(header: string[]): Column[] {
  const seen = new Set<string>();
  const columns = header.map((raw, index): Column => {
    const name = raw.trim();
    const lower = name.toLowerCase();
    if (seen.has(lower)) throw csvHeaderError(`column "${name}" appears twice`, index);
    seen.add(lower);
    if (lower.startsWith(ALTERNATE) && lower.length > ALTERNATE.length)
      return { kind: 'alternate', hreflang: name.slice(ALTERNATE.length).trim() };
    if (FIELDS.has(lower)) return { kind: 'field', name: lower };
    throw csvHeaderError(
      `unknown column "${name}": use loc, lastmod, changefreq, priority, section, hreflang, images or alternate:<hreflang>`,
      index,
    );
  });
  if (!seen.has('loc')) throw csvHeaderError('the header row has no loc column', 0);
  return columns;
}

function toEntry(columns: Column[], record: string[]): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  const alternates: { hreflang: string; href: string }[] = [];
  let hasAlternateColumns = false;
  columns.forEach((column, index) => {
    const cell = record[index]?.trim() ?? '';
    if (column.kind === 'alternate') {
      hasAlternateColumns = true;
      if (cell !== '') alternates.push({ hreflang: column.hreflang, href: cell });
      return;
    }
    if (cell === '') return;
    if (column.name === 'priority') entry.priority = Number.isFinite(Number(cell)) ? Number(cell) : cell;
    else if (column.name === 'images') entry.images = cell.split(/\s+/).map((loc) => ({ loc }));
    else entry[column.name] = cell;
  });
  if (hasAlternateColumns) entry.alternates = alternates;
  return entry;
}

function csvHeaderError(message: string, column: number): DomainError {
  return new DomainError('invalid', 'INVALID_CSV_HEADER', message, [{ field: `header[${column}]`, line: 1, message }]);
}
