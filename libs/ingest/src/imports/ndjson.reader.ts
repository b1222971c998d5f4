// NDJSON: one JSON object per line, lines numbered from 1. Split on bytes, so memory holds one
// chunk and at most one line; a line longer than `maxLineBytes` is skipped to its end and
// reported, never buffered.
import { isAscii, isUtf8 } from 'node:buffer';
import type { ImportItem } from './import.types';

export const MAX_LINE_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

export async function* readNdjson(
  input: AsyncIterable<Buffer | string>,
  maxLineBytes = MAX_LINE_BYTES,
): AsyncGenerator<ImportItem> {
  let line = 0;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let oversized = false;

  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    let start = 0;
    // The lines that begin and end in this chunk are checked at once, not one by one: valid UTF-8
    // throughout (a newline is never part of a multi-byte character, so each of them is too),
    // and if all ASCII, decoded as Latin-1, which is quicker.
    const region = checkedRegion(chunk, parts.length === 0 && !oversized ? 0 : chunk.indexOf(NEWLINE) + 1);
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      line += 1;
      if (oversized) yield tooLong(line, maxLineBytes);
      else if (parts.length === 0) {
        const checked = region !== undefined && start >= region.from;
        yield checked
          ? parseLine(line, chunk.toString(region.encoding, start, withoutCr(chunk, start, end)))
          : parseNdjsonLine(line, chunk.subarray(start, end));
      } else {
        parts.push(chunk.subarray(start, end));
        yield partBytes + end - start > maxLineBytes
          ? tooLong(line, maxLineBytes)
          : parseNdjsonLine(line, Buffer.concat(parts));
      }
      parts = [];
      partBytes = 0;
      oversized = false;
      start = end + 1;
    }
    if (start < chunk.length && !oversized) {
      partBytes += chunk.length - start;
      if (partBytes > maxLineBytes) {
        oversized = true;
        parts = [];
      } else parts.push(chunk.subarray(start));
    }
  }
  if (oversized) yield tooLong(line + 1, maxLineBytes);
  else if (partBytes > 0) yield parseNdjsonLine(line + 1, Buffer.concat(parts));
}

/** Where the chunk's whole lines (from `from` to its last newline) were found valid, and how to decode them. */
function checkedRegion(chunk: Buffer, from: number): { from: number; encoding: 'latin1' | 'utf8' } | undefined {
  const last = chunk.lastIndexOf(NEWLINE);
  if (last < from) return undefined;
  const lines = chunk.subarray(from, last);
  if (isAscii(lines)) return { from, encoding: 'latin1' };
  return isUtf8(lines) ? { from, encoding: 'utf8' } : undefined;
}

/** The end of a line without its CR, if it ends CRLF. */
function withoutCr(chunk: Buffer, start: number, end: number): number {
  return end > start && chunk[end - 1] === 0x0d ? end - 1 : end;
}

function parseNdjsonLine(line: number, bytes: Buffer): ImportItem {
  const body = bytes.subarray(0, withoutCr(bytes, 0, bytes.length));
  if (!isUtf8(body))
    return { line, issue: { code: 'INVALID_UTF8', field: '', message: 'the line is not valid UTF-8' } };
  return parseLine(line, body.toString('utf8'));
}

function parseLine(line: number, text: string): ImportItem {
  if (text.trim() === '') return { line, blank: true };
  try {
    return { line, entry: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      line,
      issue: { code: 'INVALID_JSON', field: '', message: `not a JSON object: ${(error as Error).message}` },
    };
  }
}

function tooLong(line: number, max: number): ImportItem {
  return { line, issue: { code: 'LINE_TOO_LONG', field: '', message: `the line is longer than ${max} bytes` } };
}
