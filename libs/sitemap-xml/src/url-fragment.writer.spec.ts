import { describe, expect, it } from 'vitest';
import { escapeXml, findForbiddenChar } from './escape';
import { ALL_NAMESPACES, Namespace, URLSET_CLOSE, urlsetOpen } from './namespaces';
import { SitemapXmlError } from './sitemap-xml.errors';
import type { SitemapUrl, SitemapVideo } from './sitemap-xml.types';
import { namespacesOf, renderUrlFragment, toUrlFragment } from './url-fragment.writer';

const LOC = 'https://shop.example.com/p/1';
const VIDEO: SitemapVideo = {
  thumbnailLoc: 'https://cdn.example.com/t.jpg',
  title: 'T',
  description: 'D',
  contentLoc: 'https://cdn.example.com/v.mp4',
};

function errorOf(fn: () => unknown): SitemapXmlError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SitemapXmlError) return error;
    throw error;
  }
  throw new Error('expected a SitemapXmlError');
}

describe('escapeXml', () => {
  it('escapes the five entities the protocol names', () => {
    expect(escapeXml(`a&b'c"d<e>f`)).toBe('a&amp;b&apos;c&quot;d&lt;e&gt;f');
  });

  it('writes tab, LF and CR as character references so parsers keep them', () => {
    expect(escapeXml('a\tb\nc\rd')).toBe('a&#9;b&#10;c&#13;d');
  });

  it('returns clean strings as they are, including non-ASCII and surrogate pairs', () => {
    const clean = 'https://shop.example.com/p/1?x=%20 Ωé中文 😀 \u{10FFFF} \u007F \u0085';
    expect(escapeXml(clean)).toBe(clean);
  });

  it.each([
    ['NUL', 'a\u0000'],
    ['BEL', '\u0007'],
    ['vertical tab', 'a\u000Bb'],
    ['form feed', '\u000C'],
    ['escape', '\u001B[0m'],
    ['U+FFFE', '\uFFFE'],
    ['U+FFFF', 'x\uFFFF'],
    ['lone high surrogate', 'a\uD83D'],
    ['lone high surrogate before text', '\uD83Dx'],
    ['lone low surrogate', '\uDE00a'],
    ['reversed pair', '\uDE00\uD83D'],
  ])('refuses %s with INVALID_CHARACTER', (_name, value) => {
    expect(errorOf(() => escapeXml(value)).code).toBe('INVALID_CHARACTER');
    expect(findForbiddenChar(value)).toBeGreaterThanOrEqual(0);
  });

  it('finds no forbidden character in allowed text', () => {
    expect(findForbiddenChar('tab\tlf\ncr\r 😀 \uE000 \uFFFD')).toBe(-1);
  });
});

describe('renderUrlFragment', () => {
  it('writes a plain URL', () => {
    expect(renderUrlFragment({ loc: LOC })).toBe(`<url><loc>${LOC}</loc></url>`);
  });

  it('writes the core fields in schema order, priority as given (at least one decimal, at most three)', () => {
    expect(renderUrlFragment({ loc: LOC, lastmod: '2024-05-01', changefreq: 'daily', priority: 1 })).toBe(
      `<url><loc>${LOC}</loc><lastmod>2024-05-01</lastmod><changefreq>daily</changefreq><priority>1.0</priority></url>`,
    );
    expect(renderUrlFragment({ loc: LOC, priority: 0 })).toContain('<priority>0.0</priority>');
    expect(renderUrlFragment({ loc: LOC, priority: 0.55 })).toContain('<priority>0.55</priority>');
    expect(renderUrlFragment({ loc: LOC, priority: 0.04 })).toContain('<priority>0.04</priority>');
    expect(renderUrlFragment({ loc: LOC, priority: 0.125 })).toContain('<priority>0.125</priority>');
    expect(renderUrlFragment({ loc: LOC, priority: 0.5 })).toContain('<priority>0.5</priority>');
  });

  it('writes no lastmod when none is known', () => {
    expect(renderUrlFragment({ loc: LOC, lastmod: undefined, priority: 0.3 })).toBe(
      `<url><loc>${LOC}</loc><priority>0.3</priority></url>`,
    );
  });

  it('escapes ampersands and apostrophes in URLs', () => {
    expect(renderUrlFragment({ loc: "https://shop.example.com/it's?a=1&b=2" })).toBe(
      '<url><loc>https://shop.example.com/it&apos;s?a=1&amp;b=2</loc></url>',
    );
  });

  it('writes alternates as xhtml:link elements with escaped attributes', () => {
    const xml = renderUrlFragment({
      loc: LOC,
      alternates: [
        { hreflang: 'en-GB', href: 'https://shop.example.co.uk/p?a=1&b="2"' },
        { hreflang: 'x-default', href: LOC },
      ],
    });
    expect(xml).toBe(
      `<url><loc>${LOC}</loc>` +
        '<xhtml:link rel="alternate" hreflang="en-GB" href="https://shop.example.co.uk/p?a=1&amp;b=&quot;2&quot;"/>' +
        `<xhtml:link rel="alternate" hreflang="x-default" href="${LOC}"/></url>`,
    );
  });

  it('writes images', () => {
    expect(renderUrlFragment({ loc: LOC, images: [{ loc: 'https://cdn.example.com/1.jpg' }] })).toBe(
      `<url><loc>${LOC}</loc><image:image><image:loc>https://cdn.example.com/1.jpg</image:loc></image:image></url>`,
    );
  });

  it('writes a video with every field in the order sitemap-video.xsd requires', () => {
    const xml = renderUrlFragment({
      loc: LOC,
      videos: [
        {
          ...VIDEO,
          title: 'Steak & <chips>',
          playerLoc: 'https://player.example.com/1?a=1&b=2',
          duration: 600,
          expirationDate: '2030-01-01',
          rating: 4.5,
          viewCount: 12345,
          publicationDate: '2024-01-01T00:00:00Z',
          tags: ['a', 'b'],
          familyFriendly: true,
          restriction: { relationship: 'allow', countries: ['US', 'CA'] },
          requiresSubscription: false,
          uploader: { name: 'Me & you', info: 'https://shop.example.com/u?id=1&x=2' },
          platform: { relationship: 'deny', platforms: ['tv', 'mobile'] },
          live: false,
        },
      ],
    });
    expect(xml).toBe(
      `<url><loc>${LOC}</loc><video:video>` +
        '<video:thumbnail_loc>https://cdn.example.com/t.jpg</video:thumbnail_loc>' +
        '<video:title>Steak &amp; &lt;chips&gt;</video:title>' +
        '<video:description>D</video:description>' +
        '<video:content_loc>https://cdn.example.com/v.mp4</video:content_loc>' +
        '<video:player_loc>https://player.example.com/1?a=1&amp;b=2</video:player_loc>' +
        '<video:duration>600</video:duration>' +
        '<video:expiration_date>2030-01-01</video:expiration_date>' +
        '<video:rating>4.5</video:rating>' +
        '<video:view_count>12345</video:view_count>' +
        '<video:publication_date>2024-01-01T00:00:00Z</video:publication_date>' +
        '<video:tag>a</video:tag><video:tag>b</video:tag>' +
        '<video:family_friendly>yes</video:family_friendly>' +
        '<video:restriction relationship="allow">US CA</video:restriction>' +
        '<video:requires_subscription>no</video:requires_subscription>' +
        '<video:uploader info="https://shop.example.com/u?id=1&amp;x=2">Me &amp; you</video:uploader>' +
        '<video:platform relationship="deny">tv mobile</video:platform>' +
        '<video:live>no</video:live>' +
        '</video:video></url>',
    );
  });

  it('writes ratings as plain decimals, never in exponent form', () => {
    const rating = (r: number) =>
      renderUrlFragment({ loc: LOC, videos: [{ ...VIDEO, rating: r }] }).match(
        /<video:rating>(.*)<\/video:rating>/,
      )?.[1];
    expect([0, 5, 4.25, 4.5, 1e-7].map(rating)).toEqual(['0.0', '5.0', '4.25', '4.5', '0.0']);
  });

  it('writes a news block', () => {
    const xml = renderUrlFragment({
      loc: LOC,
      news: {
        publicationName: 'The "Times"',
        publicationLanguage: 'zh-cn',
        publicationDate: '2024-05-01',
        title: 'A & B',
      },
    });
    expect(xml).toBe(
      `<url><loc>${LOC}</loc><news:news><news:publication><news:name>The &quot;Times&quot;</news:name>` +
        '<news:language>zh-cn</news:language></news:publication>' +
        '<news:publication_date>2024-05-01</news:publication_date><news:title>A &amp; B</news:title></news:news></url>',
    );
  });

  it('throws a typed error instead of writing a forbidden character, naming no partial output', () => {
    const error = errorOf(() => renderUrlFragment({ loc: LOC, videos: [{ ...VIDEO, title: 'a\u0000b' }] }));
    expect(error.code).toBe('INVALID_CHARACTER');
    expect(errorOf(() => renderUrlFragment({ loc: `${LOC}\uFFFF` })).code).toBe('INVALID_CHARACTER');
    expect(
      errorOf(() => renderUrlFragment({ loc: LOC, alternates: [{ hreflang: 'en', href: `${LOC}\uD800` }] })).code,
    ).toBe('INVALID_CHARACTER');
  });

  it.each<[string, SitemapUrl]>([
    ['priority above 1', { loc: LOC, priority: 1.5 }],
    ['NaN priority', { loc: LOC, priority: Number.NaN }],
    ['unknown changefreq', { loc: LOC, changefreq: 'sometimes' as never }],
    ['fractional duration', { loc: LOC, videos: [{ ...VIDEO, duration: 1.5 }] }],
    ['duration 0', { loc: LOC, videos: [{ ...VIDEO, duration: 0 }] }],
    ['rating 6', { loc: LOC, videos: [{ ...VIDEO, rating: 6 }] }],
    ['negative view count', { loc: LOC, videos: [{ ...VIDEO, viewCount: -1 }] }],
    [
      'bad relationship',
      { loc: LOC, videos: [{ ...VIDEO, restriction: { relationship: 'maybe' as never, countries: ['US'] } }] },
    ],
  ])('refuses to write a value the schema would reject: %s', (_name, url) => {
    expect(errorOf(() => renderUrlFragment(url)).code).toBe('INVALID_VALUE');
  });
});

describe('namespacesOf and urlsetOpen', () => {
  it('reports the extension namespaces a URL uses', () => {
    expect(namespacesOf({ loc: LOC })).toBe(0);
    expect(namespacesOf({ loc: LOC, alternates: [{ hreflang: 'en', href: LOC }] })).toBe(Namespace.XHTML);
    expect(namespacesOf({ loc: LOC, images: [], videos: [] })).toBe(0);
    expect(
      namespacesOf({
        loc: LOC,
        images: [{ loc: LOC }],
        videos: [VIDEO],
        news: { publicationName: 'n', publicationLanguage: 'en', publicationDate: '2024-01-01', title: 't' },
      }),
    ).toBe(Namespace.IMAGE | Namespace.VIDEO | Namespace.NEWS);
  });

  it('declares only the namespaces in the mask', () => {
    expect(urlsetOpen(0)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    );
    const all = urlsetOpen(ALL_NAMESPACES);
    for (const ns of [
      'xmlns:xhtml="http://www.w3.org/1999/xhtml"',
      'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"',
      'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"',
      'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"',
    ]) {
      expect(all).toContain(ns);
    }
    expect(urlsetOpen(Namespace.VIDEO)).toContain('xmlns:video=');
    expect(urlsetOpen(Namespace.VIDEO)).not.toContain('xmlns:image=');
    expect(URLSET_CLOSE).toBe('</urlset>\n');
  });

  it('measures fragments in UTF-8 bytes', () => {
    const fragment = toUrlFragment({ loc: LOC, videos: [{ ...VIDEO, title: 'é😀' }] });
    expect(fragment.bytes).toBe(Buffer.byteLength(fragment.xml as string, 'utf8'));
    expect(fragment.bytes).toBe((fragment.xml as string).length + 1 + 2);
    expect(fragment.mask).toBe(Namespace.VIDEO);
  });
});
