// What a person checks before a launch: URLs the site publishes while telling crawlers
// something else. Warnings on write (PUT …/urls) and the per-site report (GET …/conflicts) both
// come from here, with the same codes.
//
// - ROBOTS_DISALLOWED: the site's own robots.txt (which the platform serves) disallows the URL
//   for Googlebot, read as Google's parser reads it (longest match wins, `*` and `$`, Allow on a
//   tie) by the maintained `robots-parser`: Google ignores a sitemap URL it may not crawl.
// - LASTMOD_IN_FUTURE: a lastmod past now plus a small clock skew; Google stops trusting
//   lastmod on a site that does this.
// - HREFLANG_TO_EXCLUDED / HREFLANG_TO_DISALLOWED: an hreflang link to a page of the site that is
//   excluded from its files (the published cluster drops it) or disallowed by robots.txt (Google
//   cannot crawl it to confirm the reciprocal link).
import robotsParser from 'robots-parser';
import { lastmodInstant } from './url-content';
import { exclusionPatterns, type ExclusionRule } from './exclusion.rules';

export type UrlConflictCode =
  'ROBOTS_DISALLOWED' | 'LASTMOD_IN_FUTURE' | 'HREFLANG_TO_EXCLUDED' | 'HREFLANG_TO_DISALLOWED';
export const URL_CONFLICT_CODES: readonly UrlConflictCode[] = [
  'ROBOTS_DISALLOWED',
  'LASTMOD_IN_FUTURE',
  'HREFLANG_TO_EXCLUDED',
  'HREFLANG_TO_DISALLOWED',
];

/** A date-time lastmod may run this far ahead of the platform's clock (clients' clocks drift). */
export const LASTMOD_SKEW_MS = 5 * 60_000;
/** A date without a time is a day somewhere: the earliest time zone is 14 hours ahead of UTC. */
const DATE_ONLY_SKEW_MS = 14 * 3_600_000;
/** The crawler whose reading of robots.txt the checks follow. */
export const ROBOTS_USER_AGENT = 'Googlebot';

export interface UrlConflict {
  loc: string;
  code: UrlConflictCode;
  /** The entry's field at fault: `loc`, `lastmod`, `alternates[2].href`. */
  field: string;
  message: string;
}

/** A URL as the checks read it. */
export interface CheckedUrl {
  loc: string;
  lastmod?: string | null | undefined;
  alternates?: readonly { hreflang: string; href: string }[] | null | undefined;
}

export interface SiteConflictRules {
  /** The site's origin, `https://shop.example.com`: hrefs elsewhere are not the site's to judge. */
  origin: string;
  /** The site's own robots.txt rules (`sites.robots_txt`); null: nothing disallowed. */
  robotsTxt: string | null;
  exclusionRules: readonly ExclusionRule[];
}

const NO_LINKS: readonly { href: string; index: number }[] = Object.freeze([]);

export class UrlConflictChecker {
  private readonly robots: ReturnType<typeof robotsParser> | undefined;
  private readonly exclusions: RegExp[];

  private readonly prefix: string;

  constructor(private readonly site: SiteConflictRules) {
    this.prefix = `${site.origin}/`;
    this.robots = site.robotsTxt ? robotsParser(`${site.origin}/robots.txt`, site.robotsTxt) : undefined;
    this.exclusions = exclusionPatterns(site.exclusionRules).map((pattern) => new RegExp(pattern));
  }

  /** Whether the site's robots.txt disallows the URL for Googlebot. */
  disallowed(loc: string): boolean {
    return this.robots?.isDisallowed(loc, ROBOTS_USER_AGENT) === true;
  }

  /** Whether the site's rules exclude the URL (its flag is the caller's to know). */
  excludedByRule(loc: string): boolean {
    return this.exclusions.some((pattern) => pattern.test(loc));
  }

  /** The hrefs of the URL's cluster that are the site's own pages, other than itself. */
  siteLinks(url: CheckedUrl): readonly { href: string; index: number }[] {
    // A loop, not flatMap, and a list only when there is a link: PUT runs this for every entry
    // of every batch, mostly for none.
    let links: { href: string; index: number }[] | undefined;
    const alternates = url.alternates;
    if (!alternates) return NO_LINKS;
    for (let index = 0; index < alternates.length; index++) {
      const href = (alternates[index] as { href: string }).href;
      if (href !== url.loc && href.startsWith(this.prefix)) (links ??= []).push({ href, index });
    }
    return links ?? NO_LINKS;
  }

  /**
   * The URL's conflicts at `now`. `flagged`: the site's URLs flagged excluded among its links'
   * hrefs (the caller looks them up). An excluded URL itself is published nowhere, so only its
   * lastmod is judged.
   */
  check(
    url: CheckedUrl,
    opts: {
      now: Date;
      excluded: boolean;
      flagged: ReadonlySet<string>;
      /** `siteLinks(url)`, when the caller has it already. */
      siteLinks?: readonly { href: string; index: number }[];
    },
  ): UrlConflict[] {
    const conflicts: UrlConflict[] = [];
    const excluded = opts.excluded || (this.exclusions.length > 0 && this.excludedByRule(url.loc));
    if (!excluded && this.disallowed(url.loc)) {
      conflicts.push({
        loc: url.loc,
        code: 'ROBOTS_DISALLOWED',
        field: 'loc',
        message: `robots.txt disallows it for ${ROBOTS_USER_AGENT}: crawlers ignore a sitemap URL they may not crawl`,
      });
    }
    if (url.lastmod && isFuture(url.lastmod, opts.now)) {
      conflicts.push({
        loc: url.loc,
        code: 'LASTMOD_IN_FUTURE',
        field: 'lastmod',
        message: `lastmod ${url.lastmod} is in the future: search engines stop trusting a site's lastmod`,
      });
    }
    if (excluded) return conflicts;
    for (const { href, index } of opts.siteLinks ?? this.siteLinks(url)) {
      if (opts.flagged.has(href) || this.excludedByRule(href)) {
        conflicts.push({
          loc: url.loc,
          code: 'HREFLANG_TO_EXCLUDED',
          field: `alternates[${index}].href`,
          message: `${href} is excluded from the sitemaps: the published cluster leaves it out`,
        });
      } else if (this.disallowed(href)) {
        conflicts.push({
          loc: url.loc,
          code: 'HREFLANG_TO_DISALLOWED',
          field: `alternates[${index}].href`,
          message: `${href} is disallowed by robots.txt: crawlers cannot confirm the reciprocal link`,
        });
      }
    }
    return conflicts;
  }
}

/** A W3C datetime's year (`YYYY`, `YYYY-…`); NaN for any other text. */
function yearOf(lastmod: string): number {
  if (lastmod.length < 4 || (lastmod.length > 4 && lastmod.charCodeAt(4) !== 0x2d)) return Number.NaN;
  let year = 0;
  for (let i = 0; i < 4; i++) {
    const digit = lastmod.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return Number.NaN;
    year = year * 10 + digit;
  }
  return year;
}

/** Past now plus the skew its precision allows. */
export function isFuture(lastmod: string, now: Date): boolean {
  // A lastmod of year Y is over by (Y+1)-01-01T14:00Z whatever its zone: one two years back needs
  // no date parsed (PUT checks every entry, and most lastmods are in the past).
  if (yearOf(lastmod) <= now.getUTCFullYear() - 2) return false;
  const instant = lastmodInstant(lastmod);
  if (Number.isNaN(instant.getTime())) return false;
  const skew = lastmod.length <= 10 ? DATE_ONLY_SKEW_MS : LASTMOD_SKEW_MS;
  return instant.getTime() > now.getTime() + skew;
}
