import { describe, expect, it } from 'vitest';
import type { SitemapUrl } from './sitemap-xml.types';
import { createRng, generateRawEntry } from './testing/entry-generator';
import { readSitemapItems, readUrlsetWithSitemapPackage } from './testing/sitemap-package.reader';
import { normalizeUrlEntry } from './url-entry.rules';
import { renderUrlsetFiles } from './urlset.writer';

// Round trip through an independent parser: the `sitemap` package's sax-based reader must
// give back exactly the entries that were written.

const ORIGIN = 'https://shop.example.com';

describe('round trip through the sitemap package parser', () => {
  it('gives back exactly the generated entries, hostile strings and all', async () => {
    const rng = createRng(7);
    const urls: SitemapUrl[] = [];
    for (let i = 0; i < 2000; i++) {
      const result = normalizeUrlEntry(generateRawEntry(rng, ORIGIN, i), { origin: ORIGIN });
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      urls.push(result.url);
    }
    const [file] = renderUrlsetFiles(urls);
    const parsed = await readUrlsetWithSitemapPackage(file!.xml);
    expect(parsed).toHaveLength(urls.length);
    parsed.forEach((url, i) => expect(url, urls[i]!.loc).toEqual(urls[i]));
  });

  it('keeps carriage returns, tabs and line breaks in text, and entity look-alikes as text', async () => {
    const result = normalizeUrlEntry(
      {
        loc: `${ORIGIN}/v`,
        videos: [
          {
            thumbnailLoc: 'https://cdn.example.com/t.jpg',
            title: 'a\r\nb\tc &amp; <![CDATA[x]]> ]]> &#38;',
            description: 'line one\rline two\nline three \'q\' "qq"',
            contentLoc: 'https://cdn.example.com/v.mp4',
          },
        ],
      },
      { origin: ORIGIN },
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const [item] = await readSitemapItems(renderUrlsetFiles([result.url])[0]!.xml);
    expect(item!.video[0]!.title).toBe('a\r\nb\tc &amp; <![CDATA[x]]> ]]> &#38;');
    expect(item!.video[0]!.description).toBe('line one\rline two\nline three \'q\' "qq"');
  });
});
