// The normalized shapes the writers accept. Values are already checked by
// `normalizeUrlEntry` (or built by code that knows they are valid): URLs are absolute
// RFC 3986 URIs, dates are W3C date or UTC date-time strings, codes are canonical.

export const CHANGEFREQS = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'] as const;
export type Changefreq = (typeof CHANGEFREQS)[number];

export type Relationship = 'allow' | 'deny';
export type VideoPlatform = 'web' | 'mobile' | 'tv';

export interface SitemapAlternate {
  /** `en`, `en-GB`, `zh-Hant-TW` or `x-default`. */
  hreflang: string;
  href: string;
}

export interface SitemapImage {
  loc: string;
}

export interface SitemapVideo {
  thumbnailLoc: string;
  title: string;
  description: string;
  contentLoc?: string;
  playerLoc?: string;
  /** Seconds, 1–28,800. */
  duration?: number;
  expirationDate?: string;
  /** 0.0–5.0. */
  rating?: number;
  viewCount?: number;
  publicationDate?: string;
  familyFriendly?: boolean;
  restriction?: { relationship: Relationship; countries: string[] };
  platform?: { relationship: Relationship; platforms: VideoPlatform[] };
  requiresSubscription?: boolean;
  uploader?: { name: string; info?: string };
  live?: boolean;
  tags?: string[];
}

export interface SitemapNews {
  publicationName: string;
  /** ISO 639 code, lower case; `zh-cn` / `zh-tw` for Chinese as Google News asks. */
  publicationLanguage: string;
  publicationDate: string;
  title: string;
}

/** One `<url>` entry, normalized and ready to write. */
export interface SitemapUrl {
  loc: string;
  lastmod?: string;
  changefreq?: Changefreq;
  /** 0.0–1.0, written with one decimal. */
  priority?: number;
  alternates?: SitemapAlternate[];
  images?: SitemapImage[];
  videos?: SitemapVideo[];
  news?: SitemapNews;
}

/** A rule the input breaks. `field` is a path into the raw input: `videos[0].duration`. */
export interface RuleViolation {
  field: string;
  code: string;
  message: string;
}

/** Accepted input that was changed on the way in (a retired tag dropped, a date too coarse). */
export interface RuleWarning {
  field: string;
  code: string;
  message: string;
}
