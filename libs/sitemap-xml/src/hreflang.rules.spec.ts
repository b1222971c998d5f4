import { describe, expect, it } from 'vitest';
import {
  normalizeCountryCode,
  normalizeHreflang,
  normalizeNewsLanguage,
  validateHreflangCluster,
} from './hreflang.rules';
import { ISO_15924, ISO_3166_1_ALPHA_2, ISO_639_1, ISO_639_2 } from './iso-codes.data';

describe('code lists', () => {
  it('hold the real ISO lists', () => {
    expect(ISO_639_1.size).toBe(184);
    expect(ISO_3166_1_ALPHA_2.size).toBe(249);
    for (const code of ['en', 'de', 'zh', 'he', 'nb', 'yi', 'id']) expect(ISO_639_1.has(code)).toBe(true);
    // Withdrawn codes (iw, in, ji, sh, mo) are not ISO 639-1 any more.
    for (const code of ['iw', 'in', 'ji', 'sh', 'mo', 'xx']) expect(ISO_639_1.has(code)).toBe(false);
    for (const code of ['GB', 'US', 'TW', 'SS', 'BQ', 'AX']) expect(ISO_3166_1_ALPHA_2.has(code)).toBe(true);
    for (const code of ['UK', 'EU', 'XK', 'AN', 'YU']) expect(ISO_3166_1_ALPHA_2.has(code)).toBe(false);
    for (const code of ['Latn', 'Cyrl', 'Hans', 'Hant', 'Arab', 'Kawi']) expect(ISO_15924.has(code)).toBe(true);
    for (const code of ['eng', 'ger', 'deu', 'haw', 'fil', 'mul']) expect(ISO_639_2.has(code)).toBe(true);
  });

  it('agree with ICU wherever ICU has a name (every language and region code is a real one)', () => {
    const languages = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });
    const regions = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });
    expect([...ISO_639_1].filter((code) => languages.of(code) === undefined)).toEqual([]);
    expect([...ISO_3166_1_ALPHA_2].filter((code) => regions.of(code) === undefined)).toEqual([]);
  });
});

describe('normalizeHreflang', () => {
  it.each([
    ['en', 'en'],
    ['EN', 'en'],
    ['en-gb', 'en-GB'],
    ['EN-GB', 'en-GB'],
    ['x-default', 'x-default'],
    ['X-DEFAULT', 'x-default'],
    ['zh-hant', 'zh-Hant'],
    ['ZH-HANS-CN', 'zh-Hans-CN'],
    ['sr-latn-RS', 'sr-Latn-RS'],
    ['pt-BR', 'pt-BR'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeHreflang(input)).toBe(expected);
  });

  it.each([
    'en-UK',
    'es-419',
    'iw',
    'eng',
    'en_GB',
    'en-',
    '-GB',
    'GB',
    'en-GB-x',
    'en-Latn-GB-x',
    'zh-Abcd',
    'zh-Hant-XX',
    'x-default-GB',
    '',
    'english',
  ])('rejects %s', (input) => {
    expect(normalizeHreflang(input)).toBeUndefined();
  });
});

describe('normalizeNewsLanguage and normalizeCountryCode', () => {
  it('accepts two- and three-letter ISO 639 codes and Google’s zh-cn / zh-tw', () => {
    expect(['en', 'DE', 'fra', 'ger', 'zh-CN', 'zh-tw'].map(normalizeNewsLanguage)).toEqual([
      'en',
      'de',
      'fra',
      'ger',
      'zh-cn',
      'zh-tw',
    ]);
    expect(['zh-hk', 'en-gb', 'english', 'qq', 'qaa', 'e'].map(normalizeNewsLanguage)).toEqual(
      new Array(6).fill(undefined),
    );
  });

  it('accepts ISO 3166-1 alpha-2 country codes in any case', () => {
    expect(['us', 'Gb', 'UK', 'USA'].map(normalizeCountryCode)).toEqual(['US', 'GB', undefined, undefined]);
  });
});

describe('validateHreflangCluster', () => {
  const cluster = [
    { hreflang: 'en', href: 'https://example.com/en/' },
    { hreflang: 'de-DE', href: 'https://example.de/' },
    { hreflang: 'x-default', href: 'https://example.com/' },
  ];

  it('accepts a clean cluster', () => {
    expect(validateHreflangCluster(cluster)).toEqual([]);
  });

  it('reports a bad code, a repeated code and a repeated href, each once', () => {
    const violations = validateHreflangCluster([
      ...cluster,
      { hreflang: 'en-UK', href: 'https://example.co.uk/' },
      { hreflang: 'DE-de', href: 'https://example.at/' },
      { hreflang: 'fr', href: 'HTTPS://EXAMPLE.COM/en/' },
    ]);
    expect(violations.map(({ field, code }) => ({ field, code }))).toEqual([
      { field: 'alternates[3].hreflang', code: 'INVALID_HREFLANG' },
      { field: 'alternates[4].hreflang', code: 'DUPLICATE_HREFLANG' },
      { field: 'alternates[5].href', code: 'DUPLICATE_ALTERNATE' },
    ]);
    expect(violations[1]!.message).toContain('alternates[1]');
  });

  it('names fields with the given prefix', () => {
    const violations = validateHreflangCluster([cluster[0]!, cluster[0]!], 'members');
    expect(violations.map((v) => v.field)).toEqual(['members[1].hreflang', 'members[1].href']);
  });
});

describe('validateHreflangCluster at every size', () => {
  // Small clusters are compared pairwise, large ones through maps: both report the same.
  const languages = [
    'en',
    'de',
    'fr',
    'es',
    'it',
    'nl',
    'pt',
    'pl',
    'sv',
    'da',
    'fi',
    'nb',
    'cs',
    'hu',
    'ro',
    'el',
    'bg',
    'hr',
    'sk',
    'sl',
    'et',
    'lv',
    'lt',
  ];
  // Clusters of up to 16 members are compared pairwise: 13 + 3 is the largest such, 14 + 3 the
  // smallest through maps.
  for (const size of [3, 13, 14, 15, 16, 17, 23]) {
    it(`${size} members: repeated codes and hrefs point at their first use; x-default may share an href`, () => {
      const members = languages
        .slice(0, size)
        .map((code) => ({ hreflang: code, href: `https://a.example.com/${code}` }));
      members.push({ hreflang: 'x-default', href: 'https://a.example.com/en' });
      members.push({ hreflang: 'DE', href: 'https://a.example.com/new' });
      members.push({ hreflang: 'zz', href: 'https://a.example.com/fr' });
      expect(validateHreflangCluster(members)).toEqual([
        {
          field: `alternates[${size + 1}].hreflang`,
          code: 'DUPLICATE_HREFLANG',
          message: 'hreflang "de" is already used by alternates[1]',
        },
        {
          field: `alternates[${size + 2}].hreflang`,
          code: 'INVALID_HREFLANG',
          message: expect.stringContaining('"zz"'),
        },
        {
          field: `alternates[${size + 2}].href`,
          code: 'DUPLICATE_ALTERNATE',
          message: 'href is already listed by alternates[2]',
        },
      ]);
    });
  }

  for (const size of [1, 13, 14, 20]) {
    it(`${size + 3} members: an href an x-default holds first points at the first language that holds it`, () => {
      const members = [
        { hreflang: 'x-default', href: 'https://a.example.com/home' },
        ...languages.slice(3, 3 + size).map((code) => ({ hreflang: code, href: `https://a.example.com/${code}` })),
        { hreflang: 'en', href: 'https://a.example.com/home' },
        { hreflang: 'de', href: 'https://a.example.com/home' },
      ];
      expect(validateHreflangCluster(members)).toEqual([
        {
          field: `alternates[${size + 2}].href`,
          code: 'DUPLICATE_ALTERNATE',
          message: `href is already listed by alternates[${size + 1}]`,
        },
      ]);
    });
  }
});
