import { convert } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import type { SitemapUrl } from './sitemap-xml.types';
import { createRng, generateRawEntry } from './testing/entry-generator';
import { renderReferenceUrlset } from './testing/reference-urlset.writer';
import { normalizeUrlEntry } from './url-entry.rules';
import { renderUrlsetFiles } from './urlset.writer';

// The fast string writer against a plain xmlbuilder2 DOM rendering of the same entries:
// both documents are parsed and must be the same tree, for thousands of generated entries
// full of strings that break naive escaping.

const ORIGIN = 'https://shop.example.com';

function generated(seed: number, count: number): SitemapUrl[] {
  const rng = createRng(seed);
  const urls: SitemapUrl[] = [];
  for (let i = 0; i < count; i++) {
    const result = normalizeUrlEntry(generateRawEntry(rng, ORIGIN, i), { origin: ORIGIN });
    if (!result.ok) throw new Error(`generated entry ${i} is invalid: ${JSON.stringify(result.errors)}`);
    urls.push(result.url);
  }
  return urls;
}

function parse(xml: string): unknown {
  return convert(xml, { format: 'object' });
}

describe('fast writer vs xmlbuilder2 DOM', () => {
  it.each([1, 2, 3])('parses to the same document for 1,500 generated entries (seed %i)', (seed) => {
    const urls = generated(seed, 1500);
    const files = renderUrlsetFiles(urls);
    expect(files).toHaveLength(1);
    const fast = files[0]!.xml.toString('utf8');
    const reference = renderReferenceUrlset(urls);
    expect(parse(fast)).toEqual(parse(reference));
  });

  it('covers what it claims to: every extension and the hostile characters occur', () => {
    const urls = generated(1, 1500);
    const xml = renderUrlsetFiles(urls)[0]!.xml.toString('utf8');
    for (const marker of [
      '<xhtml:link',
      '<image:image>',
      '<video:video>',
      '<news:news>',
      '<video:restriction',
      '<video:platform',
      '<video:uploader info=',
      '<video:tag>',
    ]) {
      expect(xml).toContain(marker);
    }
    for (const escaped of ['&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&#13;', '&#10;', '&#9;', ']]&gt;']) {
      expect(xml).toContain(escaped);
    }
    for (const raw of ['😀', '中文', 'a\u0301', '\u{10FFFF}', '%F0%9F%98%80']) expect(xml).toContain(raw);
  });

  it('agrees entry by entry, so a difference points at one URL', () => {
    const urls = generated(4, 300);
    for (const url of urls) {
      const fast = renderUrlsetFiles([url])[0]!.xml.toString('utf8');
      expect(parse(fast), url.loc).toEqual(parse(renderReferenceUrlset([url])));
    }
  });
});
