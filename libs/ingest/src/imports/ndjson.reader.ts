// NDJSON: one JSON object per line, lines numbered from 1. Split on bytes, so memory holds one
// chunk and at most one line; a line longer than `maxLineBytes` is skipped to its end and
// reported, never buffered.
import { isUtf8 } from 'node:buffer';
import type { ImportItem } from './import.types';

export const MAX_LINE_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

export async function* readNdjson(input: AsyncIterable<Buffer | string>, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<ImportItem> {
  let line = 0;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let oversized = false;

  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      line += 1;
      if (oversized) yield tooLong(line, maxLineBytes);
      else if (parts.length === 0) yield parseNdjsonLine(line, chunk.subarray(start, end));
      else {
        parts.push(chunk.subarray(start, end));
        yield partBytes + end - start > maxLineBytes ? tooLong(line, maxLineBytes) : parseNdjsonLine(line, Buffer.concat(parts));
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

function parseNdjsonLine(line: number, bytes: Buffer): ImportItem {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  const body = bytes.subarray(0, end);
  if (!isUtf8(body)) return { line, issue: { code: 'INVALID_UTF8', field: '', message: 'the line is not valid UTF-8' } };
  const text = body.toString('utf8');
  if (text.trim() === '') return { line, blank: true };
  try {
    return { line, entry: JSON.parse(text) as unknown };
  } catch (error) {
    return { line, issue: { code: 'INVALID_JSON', field: '', message: `not a JSON object: ${(error as Error).message}` } };
  }
}

function tooLong(line: number, max: number): ImportItem {
  return { line, issue: { code: 'LINE_TOO_LONG', field: '', message: `the line is longer than ${max} bytes` } };
}
