import { describe, expect, it } from 'vitest';
import { acceptsGzip, isNotModified } from './http-conditions';

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
});
