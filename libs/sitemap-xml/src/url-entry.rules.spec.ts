import { describe, expect, it } from 'vitest';
import { SitemapXmlError } from './sitemap-xml.errors';
import { renderUrlFragment } from './url-fragment.writer';
import { normalizeUrlEntry } from './url-entry.rules';

const ORIGIN = 'https://shop.example.com';
const LOC = 'https://shop.example.com/p/1';
const VIDEO = {
  thumbnailLoc: 'https://cdn.example.com/t.jpg',
  title: 'Title',
  description: 'Description',
  contentLoc: 'https://cdn.example.com/v.mp4',
};
const NEWS = { publicationName: 'Times', publicationLanguage: 'en', publicationDate: '2024-05-01', title: 'Headline' };

function normalize(input: unknown) {
  return normalizeUrlEntry(input, { origin: ORIGIN });
}

function ok(input: unknown) {
  const result = normalize(input);
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.errors)}`);
  return result;
}

function violations(input: unknown) {
  const result = normalize(input);
  if (result.ok) throw new Error(`expected violations for ${JSON.stringify(input)}`);
  return result.errors.map(({ field, code }) => ({ field, code }));
}

const withVideo = (patch: Record<string, unknown>) => ({ loc: LOC, videos: [{ ...VIDEO, ...patch }] });
const withNews = (patch: Record<string, unknown>) => ({ loc: LOC, news: { ...NEWS, ...patch } });
const withAlternates = (...alternates: { hreflang: unknown; href: unknown }[]) => ({ loc: LOC, alternates });

describe('normalizeUrlEntry: rejections name their field and code', () => {
  const cases: [string, unknown, string, string][] = [
    ['not an object', 'https://shop.example.com/', '', 'INVALID_TYPE'],
    ['missing loc', {}, 'loc', 'REQUIRED_FIELD'],
    ['loc not a string', { loc: 42 }, 'loc', 'INVALID_TYPE'],
    ['relative loc', { loc: '/p/1' }, 'loc', 'LOC_NOT_ABSOLUTE'],
    ['loc without slashes', { loc: 'https:shop.example.com/p' }, 'loc', 'LOC_NOT_ABSOLUTE'],
    ['loc of another scheme', { loc: 'ftp://shop.example.com/p' }, 'loc', 'UNSUPPORTED_SCHEME'],
    ['loc on another host', { loc: 'https://evil.example.com/p' }, 'loc', 'URL_HOST_MISMATCH'],
    ['loc with another scheme than the origin', { loc: 'http://shop.example.com/p' }, 'loc', 'URL_HOST_MISMATCH'],
    ['loc on another port', { loc: 'https://shop.example.com:8443/p' }, 'loc', 'URL_HOST_MISMATCH'],
    [
      'loc that hides its host behind userinfo',
      { loc: 'https://shop.example.com@evil.example.com/' },
      'loc',
      'INVALID_URL',
    ],
    ['loc of 2,048 characters', { loc: ORIGIN + '/' + 'a'.repeat(2048 - ORIGIN.length - 1) }, 'loc', 'LOC_TOO_LONG'],
    ['loc too long only once encoded', { loc: ORIGIN + '/' + 'é'.repeat(400) }, 'loc', 'LOC_TOO_LONG'],
    ['loc with a line break inside', { loc: ORIGIN + '/a\nb' }, 'loc', 'INVALID_URL'],
    ['loc with a NUL', { loc: ORIGIN + '/a\u0000b' }, 'loc', 'INVALID_CHARACTER'],
    ['loc with U+FFFE', { loc: ORIGIN + '/a\uFFFE' }, 'loc', 'INVALID_CHARACTER'],
    ['loc with a lone surrogate', { loc: ORIGIN + '/a\uD800b' }, 'loc', 'INVALID_CHARACTER'],
    ['loc with a bad host', { loc: 'https://shop..example.com:99999/' }, 'loc', 'INVALID_URL'],
    ['month 13', { loc: LOC, lastmod: '2024-13-01' }, 'lastmod', 'INVALID_LASTMOD'],
    ['Feb 29 in a common year', { loc: LOC, lastmod: '2023-02-29' }, 'lastmod', 'INVALID_LASTMOD'],
    ['April 31', { loc: LOC, lastmod: '2024-04-31' }, 'lastmod', 'INVALID_LASTMOD'],
    ['hour 24', { loc: LOC, lastmod: '2024-01-01T24:00Z' }, 'lastmod', 'INVALID_LASTMOD'],
    ['second 60', { loc: LOC, lastmod: '2024-01-01T10:00:60Z' }, 'lastmod', 'INVALID_LASTMOD'],
    ['date-time without zone', { loc: LOC, lastmod: '2024-01-01T10:00:00' }, 'lastmod', 'INVALID_LASTMOD'],
    ['date-time with a space', { loc: LOC, lastmod: '2024-01-01 10:00:00Z' }, 'lastmod', 'INVALID_LASTMOD'],
    ['offset beyond 14 hours', { loc: LOC, lastmod: '2024-01-01T10:00+15:00' }, 'lastmod', 'INVALID_LASTMOD'],
    ['hours only', { loc: LOC, lastmod: '2024-01-01T10Z' }, 'lastmod', 'INVALID_LASTMOD'],
    ['prose date', { loc: LOC, lastmod: 'yesterday' }, 'lastmod', 'INVALID_LASTMOD'],
    ['year 0000', { loc: LOC, lastmod: '0000-01-01' }, 'lastmod', 'INVALID_LASTMOD'],
    ['unknown changefreq', { loc: LOC, changefreq: 'sometimes' }, 'changefreq', 'INVALID_CHANGEFREQ'],
    ['priority above 1', { loc: LOC, priority: 1.1 }, 'priority', 'INVALID_PRIORITY'],
    ['negative priority', { loc: LOC, priority: -0.1 }, 'priority', 'INVALID_PRIORITY'],
    ['priority as a string', { loc: LOC, priority: '0.5' }, 'priority', 'INVALID_PRIORITY'],
    ['priority NaN', { loc: LOC, priority: Number.NaN }, 'priority', 'INVALID_PRIORITY'],
    ['en-UK', withAlternates({ hreflang: 'en-UK', href: LOC }), 'alternates[0].hreflang', 'INVALID_HREFLANG'],
    ['region-only code', withAlternates({ hreflang: 'GB', href: LOC }), 'alternates[0].hreflang', 'INVALID_HREFLANG'],
    ['UN M.49 region', withAlternates({ hreflang: 'es-419', href: LOC }), 'alternates[0].hreflang', 'INVALID_HREFLANG'],
    [
      'withdrawn language code',
      withAlternates({ hreflang: 'iw', href: LOC }),
      'alternates[0].hreflang',
      'INVALID_HREFLANG',
    ],
    [
      'unassigned language code',
      withAlternates({ hreflang: 'xx', href: LOC }),
      'alternates[0].hreflang',
      'INVALID_HREFLANG',
    ],
    [
      'three-letter language',
      withAlternates({ hreflang: 'eng', href: LOC }),
      'alternates[0].hreflang',
      'INVALID_HREFLANG',
    ],
    [
      'underscore separator',
      withAlternates({ hreflang: 'en_GB', href: LOC }),
      'alternates[0].hreflang',
      'INVALID_HREFLANG',
    ],
    [
      'unknown script',
      withAlternates({ hreflang: 'zh-Abcd', href: LOC }),
      'alternates[0].hreflang',
      'INVALID_HREFLANG',
    ],
    [
      'bad region after script',
      withAlternates({ hreflang: 'zh-Hant-XX', href: LOC }),
      'alternates[0].hreflang',
      'INVALID_HREFLANG',
    ],
    [
      'same code twice (any case)',
      withAlternates({ hreflang: 'en-GB', href: LOC }, { hreflang: 'en-gb', href: 'https://shop.example.co.uk/' }),
      'alternates[1].hreflang',
      'DUPLICATE_HREFLANG',
    ],
    [
      'same href twice (after normalization)',
      withAlternates(
        { hreflang: 'en', href: 'https://shop.example.com/p/ü' },
        { hreflang: 'de', href: 'HTTPS://SHOP.example.com/p/%C3%BC' },
      ),
      'alternates[1].href',
      'DUPLICATE_ALTERNATE',
    ],
    ['relative alternate', withAlternates({ hreflang: 'en', href: '/en/' }), 'alternates[0].href', 'URL_NOT_ABSOLUTE'],
    [
      'alternate without hreflang',
      { loc: LOC, alternates: [{ href: LOC }] },
      'alternates[0].hreflang',
      'REQUIRED_FIELD',
    ],
    ['alternates not an array', { loc: LOC, alternates: { hreflang: 'en', href: LOC } }, 'alternates', 'INVALID_TYPE'],
    [
      'alternate href too long',
      withAlternates({ hreflang: 'en', href: 'https://a.example/' + 'x'.repeat(2040) }),
      'alternates[0].href',
      'URL_TOO_LONG',
    ],
    [
      'a cluster of 257',
      {
        loc: LOC,
        alternates: Array.from({ length: 257 }, (_, i) => ({ hreflang: 'en', href: `https://shop.example.com/${i}` })),
      },
      'alternates',
      'CLUSTER_TOO_LARGE',
    ],
    [
      '1,001 images',
      { loc: LOC, images: Array.from({ length: 1001 }, (_, i) => ({ loc: `https://cdn.example.com/${i}.jpg` })) },
      'images',
      'TOO_MANY_IMAGES',
    ],
    ['image without loc', { loc: LOC, images: [{}] }, 'images[0].loc', 'REQUIRED_FIELD'],
    ['video without content or player loc', withVideo({ contentLoc: undefined }), 'videos[0]', 'VIDEO_LOC_REQUIRED'],
    ['video content_loc is the page', withVideo({ contentLoc: LOC }), 'videos[0].contentLoc', 'VIDEO_LOC_EQUALS_PAGE'],
    ['video player_loc is the page', withVideo({ playerLoc: LOC }), 'videos[0].playerLoc', 'VIDEO_LOC_EQUALS_PAGE'],
    ['video without thumbnail', withVideo({ thumbnailLoc: undefined }), 'videos[0].thumbnailLoc', 'REQUIRED_FIELD'],
    ['video without title', withVideo({ title: undefined }), 'videos[0].title', 'REQUIRED_FIELD'],
    ['video with a blank title', withVideo({ title: '  ' }), 'videos[0].title', 'REQUIRED_FIELD'],
    ['video without description', withVideo({ description: undefined }), 'videos[0].description', 'REQUIRED_FIELD'],
    ['video title of 101', withVideo({ title: 't'.repeat(101) }), 'videos[0].title', 'VIDEO_TITLE_TOO_LONG'],
    [
      'description of 2,049',
      withVideo({ description: 'd'.repeat(2049) }),
      'videos[0].description',
      'VIDEO_DESCRIPTION_TOO_LONG',
    ],
    ['duration 0', withVideo({ duration: 0 }), 'videos[0].duration', 'INVALID_DURATION'],
    ['duration 28,801', withVideo({ duration: 28_801 }), 'videos[0].duration', 'INVALID_DURATION'],
    ['fractional duration', withVideo({ duration: 1.5 }), 'videos[0].duration', 'INVALID_DURATION'],
    ['rating 5.1', withVideo({ rating: 5.1 }), 'videos[0].rating', 'INVALID_RATING'],
    ['negative rating', withVideo({ rating: -1 }), 'videos[0].rating', 'INVALID_RATING'],
    ['negative view count', withVideo({ viewCount: -1 }), 'videos[0].viewCount', 'INVALID_VIEW_COUNT'],
    ['fractional view count', withVideo({ viewCount: 2.5 }), 'videos[0].viewCount', 'INVALID_VIEW_COUNT'],
    ['bad expiration date', withVideo({ expirationDate: '2024-02-30' }), 'videos[0].expirationDate', 'INVALID_DATE'],
    ['bad publication date', withVideo({ publicationDate: 'soon' }), 'videos[0].publicationDate', 'INVALID_DATE'],
    ['family_friendly as "yes"', withVideo({ familyFriendly: 'yes' }), 'videos[0].familyFriendly', 'INVALID_TYPE'],
    ['33 tags', withVideo({ tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }), 'videos[0].tags', 'TOO_MANY_TAGS'],
    ['blank tag', withVideo({ tags: ['a', ' '] }), 'videos[0].tags[1]', 'EMPTY_VALUE'],
    [
      'uploader of 256',
      withVideo({ uploader: { name: 'u'.repeat(256) } }),
      'videos[0].uploader.name',
      'UPLOADER_TOO_LONG',
    ],
    ['uploader without name', withVideo({ uploader: { info: LOC } }), 'videos[0].uploader.name', 'REQUIRED_FIELD'],
    [
      'restriction with UK',
      withVideo({ restriction: { relationship: 'allow', countries: ['US', 'UK'] } }),
      'videos[0].restriction.countries[1]',
      'INVALID_COUNTRY_CODE',
    ],
    [
      'restriction with an unknown relationship',
      withVideo({ restriction: { relationship: 'maybe', countries: ['US'] } }),
      'videos[0].restriction.relationship',
      'INVALID_RELATIONSHIP',
    ],
    [
      'restriction without countries',
      withVideo({ restriction: { relationship: 'deny', countries: [] } }),
      'videos[0].restriction.countries',
      'EMPTY_VALUE',
    ],
    [
      'platform desktop',
      withVideo({ platform: { relationship: 'allow', platforms: ['web', 'desktop'] } }),
      'videos[0].platform.platforms[1]',
      'INVALID_PLATFORM',
    ],
    [
      'news language in prose',
      withNews({ publicationLanguage: 'english' }),
      'news.publicationLanguage',
      'INVALID_NEWS_LANGUAGE',
    ],
    [
      'news language zh-hk',
      withNews({ publicationLanguage: 'zh-hk' }),
      'news.publicationLanguage',
      'INVALID_NEWS_LANGUAGE',
    ],
    [
      'news language not ISO 639',
      withNews({ publicationLanguage: 'qq' }),
      'news.publicationLanguage',
      'INVALID_NEWS_LANGUAGE',
    ],
    ['news date without a day', withNews({ publicationDate: '2024-05' }), 'news.publicationDate', 'INVALID_DATE'],
    ['news without title', withNews({ title: undefined }), 'news.title', 'REQUIRED_FIELD'],
    [
      'news without publication name',
      withNews({ publicationName: undefined }),
      'news.publicationName',
      'REQUIRED_FIELD',
    ],
    ['two news blocks', { loc: LOC, news: [NEWS, NEWS] }, 'news', 'MULTIPLE_NEWS'],
    ['unknown top-level field', { loc: LOC, url: LOC }, 'url', 'UNKNOWN_FIELD'],
    ['unknown video field', withVideo({ resolution: 'hd' }), 'videos[0].resolution', 'UNKNOWN_FIELD'],
    ['unknown image field', { loc: LOC, images: [{ loc: LOC, alt: 'x' }] }, 'images[0].alt', 'UNKNOWN_FIELD'],
    ['unknown news field', withNews({ section: 'World' }), 'news.section', 'UNKNOWN_FIELD'],
    ['control character in a video title', withVideo({ title: 'a\u0007b' }), 'videos[0].title', 'INVALID_CHARACTER'],
    ['U+FFFF in a description', withVideo({ description: 'a\uFFFF' }), 'videos[0].description', 'INVALID_CHARACTER'],
    ['lone low surrogate in a tag', withVideo({ tags: ['ok', 'x\uDC00'] }), 'videos[0].tags[1]', 'INVALID_CHARACTER'],
    ['vertical tab in a news title', withNews({ title: 'a\u000Bb' }), 'news.title', 'INVALID_CHARACTER'],
    [
      'control character in an uploader',
      withVideo({ uploader: { name: '\u001b[31m' } }),
      'videos[0].uploader.name',
      'INVALID_CHARACTER',
    ],
    [
      'control character in a hreflang',
      withAlternates({ hreflang: 'en\u0000', href: LOC }),
      'alternates[0].hreflang',
      'INVALID_CHARACTER',
    ],
    ['section not a string', { loc: LOC, section: 3 }, 'section', 'INVALID_TYPE'],
  ];

  it.each(cases)('%s', (_name, input, field, code) => {
    expect(violations(input)).toContainEqual({ field, code });
  });

  it('accepts a loc of exactly 2,047 characters', () => {
    const loc = ORIGIN + '/' + 'a'.repeat(2047 - ORIGIN.length - 1);
    expect(loc).toHaveLength(2047);
    expect(ok({ loc }).url.loc).toBe(loc);
  });

  it('rejects a loc shorter than the 12 characters sitemap.xsd requires', () => {
    const result = normalizeUrlEntry({ loc: 'http://a.b/' }, { origin: 'http://a.b' });
    expect(result.ok ? [] : result.errors.map(({ field, code }) => ({ field, code }))).toEqual([
      { field: 'loc', code: 'LOC_TOO_SHORT' },
    ]);
    expect(normalizeUrlEntry({ loc: 'http://a.bc/' }, { origin: 'http://a.bc' }).ok).toBe(true);
  });

  it('collects every violation of an entry, not just the first', () => {
    const errors = violations({
      loc: 'https://evil.example.com/',
      lastmod: 'never',
      priority: 2,
      videos: [{ title: 'x'.repeat(101) }],
      extra: true,
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'loc', code: 'URL_HOST_MISMATCH' },
        { field: 'lastmod', code: 'INVALID_LASTMOD' },
        { field: 'priority', code: 'INVALID_PRIORITY' },
        { field: 'videos[0].thumbnailLoc', code: 'REQUIRED_FIELD' },
        { field: 'videos[0].title', code: 'VIDEO_TITLE_TOO_LONG' },
        { field: 'videos[0].description', code: 'REQUIRED_FIELD' },
        { field: 'videos[0]', code: 'VIDEO_LOC_REQUIRED' },
        { field: 'extra', code: 'UNKNOWN_FIELD' },
      ]),
    );
  });

  it('gives every violation a message', () => {
    const result = normalize({ loc: 'nope', lastmod: 'x', changefreq: 'x' });
    expect(result.ok).toBe(false);
    if (!result.ok) for (const error of result.errors) expect(error.message.length).toBeGreaterThan(10);
  });

  it('throws a typed error for an origin that is not a URL', () => {
    expect(() => normalizeUrlEntry({ loc: LOC }, { origin: 'shop.example.com' })).toThrow(SitemapXmlError);
  });
});

describe('normalizeUrlEntry: retired tags are accepted, reported and not written', () => {
  it('drops retired image fields with a warning each', () => {
    const result = ok({
      loc: LOC,
      images: [
        {
          loc: 'https://cdn.example.com/a.jpg',
          caption: 'C',
          title: 'T',
          geoLocation: 'Limerick',
          license: 'https://l.example/',
        },
      ],
    });
    expect(result.warnings.map(({ field, code }) => ({ field, code }))).toEqual([
      { field: 'images[0].caption', code: 'RETIRED_TAG' },
      { field: 'images[0].title', code: 'RETIRED_TAG' },
      { field: 'images[0].geoLocation', code: 'RETIRED_TAG' },
      { field: 'images[0].license', code: 'RETIRED_TAG' },
    ]);
    expect(result.url.images).toEqual([{ loc: 'https://cdn.example.com/a.jpg' }]);
    const xml = renderUrlFragment(result.url);
    expect(xml).not.toMatch(/caption|geo_location|license|image:title|Limerick/);
  });

  it('drops retired video fields with a warning each', () => {
    const result = ok(
      withVideo({
        category: 'Cooking',
        galleryLoc: 'https://shop.example.com/gallery',
        price: { value: 1.99, currency: 'EUR' },
        tvshow: { showTitle: 'Show' },
        allowEmbed: true,
        autoplay: 'ap=1',
        playerLoc: 'https://player.example.com/1',
      }),
    );
    expect(result.warnings.map((w) => `${w.field} ${w.code}`)).toEqual([
      'videos[0].category RETIRED_TAG',
      'videos[0].galleryLoc RETIRED_TAG',
      'videos[0].price RETIRED_TAG',
      'videos[0].tvshow RETIRED_TAG',
      'videos[0].allowEmbed RETIRED_TAG',
      'videos[0].autoplay RETIRED_TAG',
    ]);
    const xml = renderUrlFragment(result.url);
    expect(xml).not.toMatch(/category|gallery_loc|price|tvshow|allow_embed|autoplay|Cooking|EUR/);
    expect(xml).toContain('<video:player_loc>https://player.example.com/1</video:player_loc>');
  });

  it('drops retired news fields with a warning each, keeping the article', () => {
    const result = ok(withNews({ keywords: 'a, b', genres: 'Blog', stockTickers: 'NASDAQ:A', access: 'Subscription' }));
    expect(result.warnings.map((w) => `${w.field} ${w.code}`)).toEqual([
      'news.keywords RETIRED_TAG',
      'news.genres RETIRED_TAG',
      'news.stockTickers RETIRED_TAG',
      'news.access RETIRED_TAG',
    ]);
    expect(result.url.news).toEqual(NEWS);
    const xml = renderUrlFragment(result.url);
    expect(xml).not.toMatch(/keywords|genres|stock_tickers|access|NASDAQ|Blog/);
  });

  it('ignores retired fields set to null without a warning', () => {
    expect(ok({ loc: LOC, images: [{ loc: LOC, caption: null }] }).warnings).toEqual([]);
  });

  it('drops a lastmod without a day, with a warning, instead of inventing one', () => {
    const result = ok({ loc: LOC, lastmod: '2024-05' });
    expect(result.url.lastmod).toBeUndefined();
    expect(result.warnings).toEqual([expect.objectContaining({ field: 'lastmod', code: 'DATE_PRECISION_DROPPED' })]);
    expect(ok({ loc: LOC, lastmod: '2024' }).warnings[0]?.code).toBe('DATE_PRECISION_DROPPED');
  });
});

describe('normalizeUrlEntry: normalization', () => {
  it('turns IRIs into URIs: UTF-8 percent-encoding, punycode hosts, existing escapes kept', () => {
    const result = normalizeUrlEntry(
      { loc: 'https://BÜCHER.example/straße/%41?q=ü&r=[1]|x#frag ment' },
      { origin: 'https://bücher.example' },
    );
    expect(result.ok && result.url.loc).toBe(
      'https://xn--bcher-kva.example/stra%C3%9Fe/%41?q=%C3%BC&r=%5B1%5D%7Cx#frag%20ment',
    );
  });

  it('encodes a stray percent sign and keeps emoji as UTF-8', () => {
    expect(ok({ loc: `${ORIGIN}/100%/😀` }).url.loc).toBe(`${ORIGIN}/100%25/%F0%9F%98%80`);
  });

  it('trims surrounding whitespace from URLs and text', () => {
    const result = ok({ loc: `  ${LOC}\n`, videos: [{ ...VIDEO, title: '  T  ' }] });
    expect(result.url.loc).toBe(LOC);
    expect(result.url.videos?.[0]?.title).toBe('T');
  });

  it('keeps a date a date and converts date-times to UTC with seconds', () => {
    expect(ok({ loc: LOC, lastmod: '2024-02-29' }).url.lastmod).toBe('2024-02-29');
    expect(ok({ loc: LOC, lastmod: '2024-05-01T10:30+02:00' }).url.lastmod).toBe('2024-05-01T08:30:00Z');
    expect(ok({ loc: LOC, lastmod: '2024-12-31T23:30:15.987-01:00' }).url.lastmod).toBe('2025-01-01T00:30:15Z');
    expect(ok({ loc: LOC, lastmod: '2024-05-01T00:00:00Z' }).url.lastmod).toBe('2024-05-01T00:00:00Z');
  });

  it('keeps priority as sent, to three decimals, and rating to two', () => {
    expect(ok({ loc: LOC, priority: 0.55 }).url.priority).toBe(0.55);
    expect(ok({ loc: LOC, priority: 0.04 }).url.priority).toBe(0.04);
    expect(ok({ loc: LOC, priority: 0.125 }).url.priority).toBe(0.125);
    expect(ok({ loc: LOC, priority: 0.12345 }).url.priority).toBe(0.123);
    expect(ok({ loc: LOC, priority: 1 }).url.priority).toBe(1);
    expect(ok(withVideo({ rating: 4.256 })).url.videos?.[0]?.rating).toBe(4.26);
  });

  it('makes codes canonical: changefreq, hreflang, language, countries, platforms', () => {
    const result = ok({
      loc: LOC,
      changefreq: 'DAILY',
      alternates: [
        { hreflang: 'EN-gb', href: 'https://shop.example.co.uk/' },
        { hreflang: 'zh-hant-tw', href: 'https://tw.example.com/' },
        { hreflang: 'X-Default', href: LOC },
      ],
      videos: [
        {
          ...VIDEO,
          restriction: { relationship: 'ALLOW', countries: ['us', 'Ca', 'US'] },
          platform: { relationship: 'deny', platforms: ['TV', 'web'] },
        },
      ],
      news: { ...NEWS, publicationLanguage: 'ZH-CN' },
    });
    expect(result.url.changefreq).toBe('daily');
    expect(result.url.alternates?.map((a) => a.hreflang)).toEqual(['en-GB', 'zh-Hant-TW', 'x-default']);
    expect(result.url.videos?.[0]?.restriction).toEqual({ relationship: 'allow', countries: ['US', 'CA'] });
    expect(result.url.videos?.[0]?.platform).toEqual({ relationship: 'deny', platforms: ['tv', 'web'] });
    expect(result.url.news?.publicationLanguage).toBe('zh-cn');
  });

  it('accepts three-letter ISO 639-2 news languages', () => {
    expect(ok(withNews({ publicationLanguage: 'haw' })).url.news?.publicationLanguage).toBe('haw');
  });

  it('lets alternates, images and video files live on other hosts', () => {
    const result = ok({
      loc: LOC,
      alternates: [{ hreflang: 'de', href: 'https://shop.example.de/p/1' }],
      images: [{ loc: 'https://cdn.example.net/1.jpg' }],
      videos: [{ ...VIDEO, playerLoc: 'https://player.example.org/1' }],
    });
    expect(result.url.alternates?.[0]?.href).toBe('https://shop.example.de/p/1');
  });

  it('treats null as absent and leaves out empty lists', () => {
    const result = ok({
      loc: LOC,
      lastmod: null,
      priority: null,
      alternates: [],
      images: null,
      videos: [],
      news: null,
    });
    expect(result.url).toEqual({ loc: LOC });
  });

  it('passes section through untouched', () => {
    expect(ok({ loc: LOC, section: 'products' }).section).toBe('products');
    expect(ok({ loc: LOC, section: ' Blog ' }).section).toBe(' Blog ');
    expect(ok({ loc: LOC }).section).toBeUndefined();
  });

  it('returns every optional video field normalized', () => {
    const result = ok(
      withVideo({
        playerLoc: 'https://player.example.com/1',
        duration: 600,
        expirationDate: '2030-01-01T00:00+01:00',
        rating: 4.5,
        viewCount: 12345,
        publicationDate: '2024-01-01',
        familyFriendly: true,
        restriction: { relationship: 'deny', countries: ['CN'] },
        platform: { relationship: 'allow', platforms: ['web', 'mobile'] },
        requiresSubscription: false,
        uploader: { name: 'Uploader', info: 'https://shop.example.com/u/1' },
        live: false,
        tags: ['a', 'b'],
      }),
    );
    expect(result.url.videos?.[0]).toEqual({
      ...VIDEO,
      playerLoc: 'https://player.example.com/1',
      duration: 600,
      expirationDate: '2029-12-31T23:00:00Z',
      rating: 4.5,
      viewCount: 12345,
      publicationDate: '2024-01-01',
      familyFriendly: true,
      restriction: { relationship: 'deny', countries: ['CN'] },
      platform: { relationship: 'allow', platforms: ['web', 'mobile'] },
      requiresSubscription: false,
      uploader: { name: 'Uploader', info: 'https://shop.example.com/u/1' },
      live: false,
      tags: ['a', 'b'],
    });
  });
});
