import { convert } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import { renderSitemapIndex } from './sitemap-index.writer';
import { codeOf } from './testing/error-code';

const ORIGIN = 'https://shop.example.com';

describe('renderSitemapIndex', () => {
  it('lists sitemaps with loc and optional lastmod', () => {
    const xml = renderSitemapIndex([
      { loc: `${ORIGIN}/sitemaps/a.xml.gz`, lastmod: '2024-05-01T12:00+02:00' },
      { loc: `${ORIGIN}/sitemaps/b.xml?v=1&x=2` },
    ]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(convert(xml, { format: 'object' })).toEqual({
      sitemapindex: {
        '@xmlns': 'http://www.sitemaps.org/schemas/sitemap/0.9',
        sitemap: [
          { loc: `${ORIGIN}/sitemaps/a.xml.gz`, lastmod: '2024-05-01T10:00:00Z' },
          { loc: `${ORIGIN}/sitemaps/b.xml?v=1&amp;x=2` },
        ],
      },
    });
  });

  it('accepts 50,000 entries and refuses 50,001', () => {
    const entries = Array.from({ length: 50_001 }, (_, i) => ({ loc: `${ORIGIN}/s/${i}.xml.gz` }));
    expect(renderSitemapIndex(entries.slice(0, 50_000)).split('<sitemap>').length - 1).toBe(50_000);
    expect(codeOf(() => renderSitemapIndex(entries))).toBe('INDEX_ENTRY_LIMIT');
  });

  it('refuses an entry that is itself an index', () => {
    expect(
      codeOf(() => renderSitemapIndex([{ loc: `${ORIGIN}/a.xml` }, { loc: `${ORIGIN}/index-2.xml`, isIndex: true }])),
    ).toBe('NESTED_INDEX');
  });

  it('refuses bad locs, bad lastmods, forbidden characters and an empty list', () => {
    expect(codeOf(() => renderSitemapIndex([{ loc: '/relative.xml' }]))).toBe('INVALID_URL');
    expect(codeOf(() => renderSitemapIndex([{ loc: `${ORIGIN}/a.xml`, lastmod: 'yesterday' }]))).toBe('INVALID_VALUE');
    expect(codeOf(() => renderSitemapIndex([{ loc: `${ORIGIN}/a\u0000.xml` }]))).toBe('INVALID_CHARACTER');
    expect(codeOf(() => renderSitemapIndex([]))).toBe('EMPTY_FILE');
  });
});
