import { describe, expect, it } from 'vitest';
import { isFuture, UrlConflictChecker } from './url-conflicts';

const origin = 'https://shop.example.com';
const loc = (path: string) => `${origin}${path}`;
const now = new Date('2026-06-15T12:00:00Z');
const codes = (
  checker: UrlConflictChecker,
  url: Parameters<UrlConflictChecker['check']>[0],
  flagged = new Set<string>(),
) => checker.check(url, { now, excluded: false, flagged }).map((conflict) => `${conflict.code} ${conflict.field}`);

describe('URL conflicts', () => {
  it("reads the site's robots.txt as Google does: Googlebot's group, longest match, * and $", () => {
    const checker = new UrlConflictChecker({
      origin,
      robotsTxt: [
        'User-agent: *',
        'Disallow: /',
        '',
        'User-agent: Googlebot',
        'Disallow: /private/',
        'Allow: /private/open$',
        'Disallow: /*.pdf$',
        'Allow: /private/public/',
      ].join('\n'),
      exclusionRules: [],
    });
    expect(checker.disallowed(loc('/shop'))).toBe(false); // Googlebot's group, not *'s
    expect(checker.disallowed(loc('/private/a'))).toBe(true);
    expect(checker.disallowed(loc('/private/open'))).toBe(false);
    expect(checker.disallowed(loc('/private/open/more'))).toBe(true);
    expect(checker.disallowed(loc('/private/public/x'))).toBe(false); // the longer rule wins
    expect(checker.disallowed(loc('/docs/a.pdf'))).toBe(true);
    expect(checker.disallowed(loc('/docs/a.pdf?v=1'))).toBe(false);
    expect(codes(checker, { loc: loc('/private/a') })).toEqual(['ROBOTS_DISALLOWED loc']);
  });

  it('nothing is disallowed without rules', () => {
    const checker = new UrlConflictChecker({ origin, robotsTxt: null, exclusionRules: [] });
    expect(codes(checker, { loc: loc('/private/a') })).toEqual([]);
  });

  it('a lastmod in the future, beyond the skew its precision allows', () => {
    expect(isFuture('2026-06-15T12:04:00Z', now)).toBe(false);
    expect(isFuture('2026-06-15T12:06:00Z', now)).toBe(true);
    expect(isFuture('2026-06-15T14:06:00+02:00', now)).toBe(true);
    expect(isFuture('2026-06-16', now)).toBe(false); // already the 16th east of UTC+12
    expect(isFuture('2026-06-17', now)).toBe(true);
  });

  it('judges lastmods of the years just past by their instant, and older ones without parsing', () => {
    const newYear = new Date('2027-01-01T00:30:00Z');
    // 2026-12-31 at UTC-14 is 2027-01-01T14:00Z: still ahead of that new year's night.
    expect(isFuture('2026-12-31T23:59:00-14:00', newYear)).toBe(true);
    expect(isFuture('2026', newYear)).toBe(false);
    expect(isFuture('2025-12-31T23:59:00-14:00', newYear)).toBe(false);
    expect(isFuture('2030-01-01', newYear)).toBe(true);
    expect(isFuture('not a date', newYear)).toBe(false);
  });

  it('hreflang links to pages of the site that are excluded or disallowed; other hosts are not judged', () => {
    const checker = new UrlConflictChecker({
      origin,
      robotsTxt: 'User-agent: *\nDisallow: /fr/',
      exclusionRules: [{ kind: 'prefix', path: '/de/' }],
    });
    const url = {
      loc: loc('/en/p'),
      alternates: [
        { hreflang: 'de', href: loc('/de/p') },
        { hreflang: 'en', href: loc('/en/p') },
        { hreflang: 'es', href: loc('/es/p') },
        { hreflang: 'fr', href: loc('/fr/p') },
        { hreflang: 'it', href: 'https://other.example/de/p' },
      ],
    };
    expect(codes(checker, url, new Set([loc('/es/p')]))).toEqual([
      'HREFLANG_TO_EXCLUDED alternates[0].href',
      'HREFLANG_TO_EXCLUDED alternates[2].href',
      'HREFLANG_TO_DISALLOWED alternates[3].href',
    ]);
    // An excluded URL is published nowhere: only its lastmod is its own business.
    expect(checker.check({ ...url, loc: loc('/de/p') }, { now, excluded: false, flagged: new Set() })).toEqual([]);
  });
});
