import { describe, expect, it } from 'vitest';
import { MAX_URLS_PER_FILE } from './limits';
import { renderTextSitemap } from './text-sitemap.writer';
import { codeOf } from './testing/error-code';

const ORIGIN = 'https://shop.example.com';

describe('renderTextSitemap', () => {
  it('writes one URI per line, each ending in LF', () => {
    expect(renderTextSitemap([`${ORIGIN}/a`, `${ORIGIN}/b?x=1&y=2`])).toBe(`${ORIGIN}/a\n${ORIGIN}/b?x=1&y=2\n`);
    expect(renderTextSitemap([])).toBe('');
  });

  it('writes IRIs as URIs, so no line holds whitespace or non-ASCII', () => {
    const text = renderTextSitemap([`${ORIGIN}/straße und weg/😀`]);
    expect(text).toBe(`${ORIGIN}/stra%C3%9Fe%20und%20weg/%F0%9F%98%80\n`);
    expect(Buffer.byteLength(text)).toBe(text.length);
  });

  it('accepts 50,000 URLs and refuses 50,001', () => {
    const locs = Array.from({ length: MAX_URLS_PER_FILE + 1 }, (_, i) => `${ORIGIN}/p/${i}`);
    expect(renderTextSitemap(locs.slice(0, MAX_URLS_PER_FILE)).split('\n')).toHaveLength(MAX_URLS_PER_FILE + 1);
    expect(codeOf(() => renderTextSitemap(locs))).toBe('FILE_URL_LIMIT');
  });

  it('refuses a file over 52,428,800 bytes', () => {
    const loc = `${ORIGIN}/${'x'.repeat(2000)}`;
    const locs = new Array<string>(26_000).fill(loc);
    expect(codeOf(() => renderTextSitemap(locs))).toBe('FILE_BYTE_LIMIT');
  });

  it('refuses relative URLs, line breaks and forbidden characters', () => {
    expect(codeOf(() => renderTextSitemap(['/a']))).toBe('INVALID_URL');
    expect(codeOf(() => renderTextSitemap([`${ORIGIN}/a\n${ORIGIN}/b`]))).toBe('INVALID_URL');
    expect(codeOf(() => renderTextSitemap([`${ORIGIN}/a\u0001`]))).toBe('INVALID_CHARACTER');
    expect(codeOf(() => renderTextSitemap([`${ORIGIN}/${'x'.repeat(2048)}`]))).toBe('INVALID_URL');
  });
});
