import { describe, expect, it } from 'vitest';
import { sitemapLinesOfRobotsTxt } from './robots-txt.reader';

const values = (text: string) => sitemapLinesOfRobotsTxt(text).map((found) => found.value);

describe('sitemapLinesOfRobotsTxt', () => {
  it('reads the spellings of the key that Google accepts', () => {
    const robots = [
      'User-agent: *',
      'Disallow: /admin',
      'Sitemap: https://a.example/1.xml',
      'sitemap:https://a.example/2.xml',
      'SITEMAP : https://a.example/3.xml',
      'Site-map: https://a.example/4.xml',
      'site-MAP:https://a.example/5.xml',
      '  Sitemaps: https://a.example/6.xml  # a comment',
    ].join('\r\n');
    expect(values(robots)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `https://a.example/${n}.xml`));
  });

  it('splits at the first colon, and at whitespace when a line of two words has none, as Google does', () => {
    // The key of the first is "Sitemap https": it still starts with "sitemap".
    expect(values('Sitemap https://a.example/7.xml\nSitemap /relative.xml\nSitemap /a.xml /b.xml\n')).toEqual([
      '//a.example/7.xml',
      '/relative.xml',
    ]);
  });

  it('skips a BOM, comments, empty values and keys that are not the sitemap key', () => {
    const robots =
      '\uFEFFSitemap: https://a.example/bom.xml\r# Sitemap: https://a.example/commented.xml\nSitemap:\n' +
      'Site map: https://a.example/two-words.xml\nMy-sitemap: https://a.example/no.xml\n';
    expect(sitemapLinesOfRobotsTxt(robots)).toEqual([{ line: 1, value: 'https://a.example/bom.xml' }]);
  });
});
