import { describe, expect, it } from 'vitest';
import { acceptsGzip, ifRangeHolds, isNotModified, parseByteRange } from './http-conditions';

describe('http conditions', () => {
  it('reads Accept-Encoding with q-values and wildcards', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('x-gzip')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('*, gzip;q=0')).toBe(false);
    expect(acceptsGzip('br, identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it('lets If-None-Match decide when present, else compares If-Modified-Since to the second', () => {
    const stored = new Date('2026-01-15T10:00:00.750Z');
    expect(isNotModified({ 'if-none-match': 'W/"a", "b"' }, '"a"', stored)).toBe(true);
    expect(isNotModified({ 'if-none-match': '"b"', 'if-modified-since': stored.toUTCString() }, '"a"', stored)).toBe(
      false,
    );
    expect(isNotModified({ 'if-modified-since': 'Thu, 15 Jan 2026 10:00:00 GMT' }, '"a"', stored)).toBe(true);
    expect(isNotModified({ 'if-modified-since': 'Thu, 15 Jan 2026 09:59:59 GMT' }, '"a"', stored)).toBe(false);
    expect(isNotModified({}, '"a"', stored)).toBe(false);
    expect(isNotModified({ 'if-modified-since': stored.toUTCString() }, '"a"', null)).toBe(false);
    expect(isNotModified({ 'if-none-match': '"a"' }, '"a"', null)).toBe(true);
  });

  it('reads one byte range against the length, as RFC 9110 §14.1.2 counts it', () => {
    expect(parseByteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseByteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    // A last position past the end is cut to the end; a suffix longer than the whole is all of it.
    expect(parseByteRange('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
    expect(parseByteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('Bytes=99-99', 100)).toEqual({ start: 99, end: 99 });
  });

  it('calls a range that starts past the end unsatisfiable, and ignores what it cannot honour', () => {
    for (const header of ['bytes=100-', 'bytes=100-200', 'bytes=-0']) {
      expect([header, parseByteRange(header, 100)]).toEqual([header, 'unsatisfiable']);
    }
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
    // Another unit, malformed, last before first, and several ranges: the whole representation.
    for (const header of ['items=0-9', 'bytes=', 'bytes=-', 'bytes=a-9', 'bytes=9-0', 'bytes=0-9,20-29', 'bytes 0-9']) {
      expect([header, parseByteRange(header, 100)]).toEqual([header, null]);
    }
  });

  it('applies a range under If-Range only for the same strong ETag or the exact Last-Modified', () => {
    const lastModified = 'Thu, 15 Jan 2026 10:00:00 GMT';
    expect(ifRangeHolds(undefined, '"a"', lastModified)).toBe(true);
    expect(ifRangeHolds('"a"', '"a"', lastModified)).toBe(true);
    expect(ifRangeHolds('"b"', '"a"', lastModified)).toBe(false);
    // A weak tag never matches, on either side.
    expect(ifRangeHolds('W/"a"', '"a"', lastModified)).toBe(false);
    expect(ifRangeHolds('W/"a"', 'W/"a"', lastModified)).toBe(false);
    expect(ifRangeHolds(lastModified, '"a"', lastModified)).toBe(true);
    expect(ifRangeHolds('Thu, 15 Jan 2026 10:00:01 GMT', '"a"', lastModified)).toBe(false);
    expect(ifRangeHolds(lastModified, '"a"', undefined)).toBe(false);
    expect(ifRangeHolds('not a date', '"a"', lastModified)).toBe(false);
  });
});
