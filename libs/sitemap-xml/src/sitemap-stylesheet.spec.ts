import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { urlsetOpen, xslStylesheetPi } from './namespaces';
import { renderSitemapIndex } from './sitemap-index.writer';
import { toUrlFragment } from './url-fragment.writer';
import { gzipUrlsetStream } from './urlset-stream.writer';
import { validateSitemapFile } from './validate/sitemap.validator';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SHARD_PI = '<?xml-stylesheet type="text/xsl" href="../sitemap.xsl"?>\n';

describe('the stylesheet processing instruction', () => {
  it('follows the declaration of an index, which stays valid against the XSD', async () => {
    const xml = renderSitemapIndex([{ loc: 'https://shop.example.com/sitemaps/1.xml.gz', lastmod: '2026-01-01' }], {
      stylesheet: 'sitemap.xsl',
    });
    expect(xml.startsWith(`${DECLARATION}<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>\n<sitemapindex`)).toBe(
      true,
    );
    expect((await validateSitemapFile('index.xml', Buffer.from(xml))).problems).toEqual([]);
    expect(renderSitemapIndex([{ loc: 'https://shop.example.com/sitemaps/1.xml.gz' }])).not.toContain('xml-stylesheet');
  });

  it('is one header of a streamed shard, counted in its size, and the shard stays valid', async () => {
    const fragments = [1, 2, 3].map((n) =>
      toUrlFragment({
        loc: `https://shop.example.com/p/${n}`,
        alternates: [{ hreflang: 'en', href: `https://shop.example.com/p/${n}` }],
        images: [{ loc: `https://cdn.example.com/${n}.jpg` }],
      }),
    );
    const body = Buffer.concat(fragments.map((fragment) => Buffer.from(fragment.xml)));
    const mask = fragments.reduce((all, fragment) => all | fragment.mask, 0);
    const meta = { urls: 3, bytes: body.length, mask };
    async function* blocks() {
      yield body;
    }
    const plain = await gzipUrlsetStream(blocks(), meta);
    const styled = await gzipUrlsetStream(blocks(), meta, { stylesheet: '../sitemap.xsl' });
    expect(xslStylesheetPi('../sitemap.xsl')).toBe(SHARD_PI);
    expect(styled.byteSize - plain.byteSize).toBe(SHARD_PI.length);
    const xml = gunzipSync(styled.gzip).toString();
    expect(xml.length).toBe(styled.byteSize);
    expect(xml.startsWith(`${DECLARATION}${SHARD_PI}<urlset`)).toBe(true);
    expect(xml.match(/xml-stylesheet/g)).toHaveLength(1);
    expect(urlsetOpen(mask, '../sitemap.xsl')).toBe(urlsetOpen(mask).replace(DECLARATION, DECLARATION + SHARD_PI));
    expect((await validateSitemapFile('shard.xml', Buffer.from(xml))).problems).toEqual([]);
  });

  it('refuses an href that would break out of the instruction', () => {
    expect(() => xslStylesheetPi('x"?><evil/>')).toThrow(/stylesheet href/);
    expect(() => urlsetOpen(0, 'a b.xsl')).toThrow(/stylesheet href/);
  });
});
