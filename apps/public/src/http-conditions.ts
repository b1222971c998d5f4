// The few pieces of HTTP semantics the public server needs (RFC 9110), kept small and explicit.

/** Accept-Encoding values seen: crawlers send a handful of distinct ones, on every request. */
const gzipAccepted = new Map<string, boolean>();
/** Distinct values remembered; past that the memo starts over, so made-up values cannot grow it. */
const MAX_ACCEPT_ENCODINGS = 1_000;

/** Whether `Accept-Encoding` admits gzip (`gzip`, `x-gzip` or `*` with a non-zero q). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let accepted = gzipAccepted.get(header);
  if (accepted === undefined) {
    accepted = parseAcceptsGzip(header);
    if (gzipAccepted.size >= MAX_ACCEPT_ENCODINGS) gzipAccepted.clear();
    gzipAccepted.set(header, accepted);
  }
  return accepted;
}

function parseAcceptsGzip(header: string): boolean {
  let wildcard = false;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    const accepted = q === undefined || Number(q) > 0;
    if (coding.trim() === 'gzip' || coding.trim() === 'x-gzip') return accepted;
    if (coding.trim() === '*') wildcard = accepted;
  }
  return wildcard;
}

/**
 * If-None-Match wins over If-Modified-Since when both are sent. ETags compare weakly, as RFC 9110
 * requires for If-None-Match; dates at one-second precision, as HTTP dates carry. Without a
 * Last-Modified (null), only If-None-Match can match.
 */
export function isNotModified(
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
  etag: string,
  lastModified: Date | null,
): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    // What a client sends back almost always: the tag itself.
    if (ifNoneMatch === etag) return true;
    const opaque = etag.replace(/^W\//, '');
    return ifNoneMatch.split(',').some((tag) => {
      const candidate = tag.trim();
      return candidate === '*' || candidate.replace(/^W\//, '') === opaque;
    });
  }
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince === undefined || lastModified === null) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/** One byte range with both ends inclusive, within the representation. */
export interface ByteRange {
  start: number;
  end: number;
}

const SINGLE_BYTE_RANGE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i;

/**
 * The byte range a `Range` header asks for (RFC 9110 §14.1.2), against a representation of
 * `length` bytes. `unsatisfiable` (a 416) when it starts at or past the end, or is an empty
 * suffix; null when the header is to be ignored, which §14.2 allows: another unit, a malformed
 * or invalid (last < first) range, or several ranges — answered with the whole representation
 * (200) rather than multipart/byteranges, which crawlers and CDNs resuming a download do not ask for.
 * Hand-written rather than range-parser: that package turns a suffix longer than the
 * representation, which means all of it, into "unsatisfiable".
 */
export function parseByteRange(header: string, length: number): ByteRange | 'unsatisfiable' | null {
  const match = SINGLE_BYTE_RANGE.exec(header);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '') {
    if (last === '') return null;
    const suffix = Number(last);
    return suffix === 0 || length === 0 ? 'unsatisfiable' : { start: Math.max(0, length - suffix), end: length - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= length) return 'unsatisfiable';
  return { start, end: last === '' ? length - 1 : Math.min(Number(last), length - 1) };
}

/**
 * Whether `Range` applies under `If-Range` (RFC 9110 §13.1.5): an entity tag must match the
 * current one strongly (a weak tag never does), a date must equal Last-Modified exactly.
 * Without If-Range it always applies. When it does not, the whole representation is sent.
 */
export function ifRangeHolds(
  ifRange: string | undefined,
  etag: string | undefined,
  lastModified: string | undefined,
): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/'))
    return etag !== undefined && !etag.startsWith('W/') && value === etag;
  if (lastModified === undefined) return false;
  const date = Date.parse(value);
  return !Number.isNaN(date) && date === Date.parse(lastModified);
}
