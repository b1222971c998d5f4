import { describeChar, findForbiddenChar } from './escape';
import { clusterViolations, normalizeCountryCode, normalizeHreflang, normalizeNewsLanguage } from './hreflang.rules';
import {
  MAX_CLUSTER_SIZE,
  MAX_IMAGES_PER_URL,
  MAX_URL_LENGTH,
  MAX_VIDEO_DESCRIPTION_LENGTH,
  MAX_VIDEO_DURATION,
  MAX_VIDEO_RATING,
  MAX_VIDEO_TAGS,
  MAX_VIDEO_TITLE_LENGTH,
  MAX_VIDEO_UPLOADER_LENGTH,
  MIN_LOC_LENGTH,
  MIN_VIDEO_DURATION,
  PRIORITY_DECIMALS,
} from './limits';
import { SitemapXmlError } from './sitemap-xml.errors';
import {
  CHANGEFREQS,
  type Changefreq,
  type Relationship,
  type RuleViolation,
  type RuleWarning,
  type SitemapAlternate,
  type SitemapImage,
  type SitemapNews,
  type SitemapUrl,
  type SitemapVideo,
  type VideoPlatform,
} from './sitemap-xml.types';
import {
  alternateSchema,
  entryFields,
  imageSchema,
  newsSchema,
  RETIRED_IMAGE_FIELDS,
  RETIRED_NEWS_FIELDS,
  RETIRED_VIDEO_FIELDS,
  videoPlatformSchema,
  videoRestrictionSchema,
  videoSchema,
  videoUploaderSchema,
} from './url-entry.schema';
import { normalizeHttpUrl } from './url.rules';
import { normalizeW3cDatetime } from './w3c-datetime.rules';

// Raw entry (camelCase JSON from the API or an import) → SitemapUrl, applying the
// protocol's and Google's rules (sitemaps.org 0.9, Google's extensions). All violations are collected,
// not just the first, so a client can fix an entry in one round trip.
//
// Normalization choices, all so that equal content gives byte-equal fragments:
// - strings are trimmed of surrounding whitespace; `null` means "absent" for optional fields;
// - URLs become strict RFC 3986 URIs (see url.rules.ts);
// - dates: see w3c-datetime.rules.ts; `YYYY`/`YYYY-MM` on an optional field is dropped with a
//   DATE_PRECISION_DROPPED warning (no sitemap schema can carry it), on a required one rejected;
// - priority is kept to three decimals (PRIORITY_DECIMALS: 0.55 stays 0.55), video rating to two;
// - changefreq, hreflang, language, country and relationship values are case-insensitive in
//   and canonical out; empty arrays are omitted.

export interface NormalizeOptions {
  /** Scheme, host and port every `loc` must share: `https://shop.example.com`. */
  origin: string;
}

export type NormalizeResult =
  { ok: true; url: SitemapUrl; warnings: RuleWarning[]; section?: string } | { ok: false; errors: RuleViolation[] };

const NONE: ReadonlySet<string> = new Set();
// The fields each object may have are the schemas' (url-entry.schema.ts): one list for both.
const URL_KEYS = fieldsOf(entryFields);
const ALTERNATE_KEYS = fieldsOf(alternateSchema.shape);
const IMAGE_RETIRED: ReadonlySet<string> = new Set(RETIRED_IMAGE_FIELDS);
const IMAGE_KEYS = fieldsOf(imageSchema.shape, IMAGE_RETIRED);
const VIDEO_RETIRED: ReadonlySet<string> = new Set(RETIRED_VIDEO_FIELDS);
const VIDEO_KEYS = fieldsOf(videoSchema.shape, VIDEO_RETIRED);
const RESTRICTION_KEYS = fieldsOf(videoRestrictionSchema.shape);
const PLATFORM_KEYS = fieldsOf(videoPlatformSchema.shape);
const UPLOADER_KEYS = fieldsOf(videoUploaderSchema.shape);
const NEWS_RETIRED: ReadonlySet<string> = new Set(RETIRED_NEWS_FIELDS);
const NEWS_KEYS = fieldsOf(newsSchema.shape, NEWS_RETIRED);
const PLATFORMS: ReadonlySet<string> = new Set<VideoPlatform>(['web', 'mobile', 'tv']);
const CHANGEFREQ_SET: ReadonlySet<string> = new Set(CHANGEFREQS);

/** How a date field is checked: the code its errors carry, and whether it must be present. */
interface DateRule {
  code: 'INVALID_LASTMOD' | 'INVALID_DATE';
  required: boolean;
}
const LASTMOD: DateRule = { code: 'INVALID_LASTMOD', required: false };
const OPTIONAL_DATE: DateRule = { code: 'INVALID_DATE', required: false };
const REQUIRED_DATE: DateRule = { code: 'INVALID_DATE', required: true };

/**
 * A priority as stored and written: what was sent, to PRIORITY_DECIMALS decimals (0.55 stays
 * 0.55, 0.1234 becomes 0.123). Three decimals also survive the float4 column exactly.
 */
export function roundPriority(value: number): number {
  return Math.round(value * PRIORITY_SCALE) / PRIORITY_SCALE;
}
const PRIORITY_SCALE = 10 ** PRIORITY_DECIMALS;

/** Validates and normalizes one raw URL entry. Never throws for bad input; throws for a bad origin. */
export function normalizeUrlEntry(input: unknown, opts: NormalizeOptions): NormalizeResult {
  const check = new EntryCheck(originFor(opts.origin));
  if (!isRecord(input)) {
    check.error('', 'INVALID_TYPE', 'a URL entry must be an object');
    return { ok: false, errors: check.errors };
  }
  check.knownKeys(input, URL_KEYS, NONE, '');

  const loc = check.loc(input.loc);
  const url: SitemapUrl = { loc: loc ?? '' };
  const lastmod = check.date(input, 'lastmod', 'lastmod', LASTMOD);
  if (lastmod !== undefined) url.lastmod = lastmod;
  const changefreq = check.changefreq(input.changefreq);
  if (changefreq !== undefined) url.changefreq = changefreq;
  const priority = check.priority(input.priority);
  if (priority !== undefined) url.priority = priority;
  const alternates = check.alternates(input.alternates);
  if (alternates.length > 0) url.alternates = alternates;
  const images = check.images(input.images);
  if (images.length > 0) url.images = images;
  const videos = check.videos(input.videos, loc);
  if (videos.length > 0) url.videos = videos;
  const news = check.news(input.news);
  if (news !== undefined) url.news = news;
  // The domain's grouping key: not written to XML, so passed through exactly as given.
  const section = isAbsent(input.section) ? undefined : input.section;
  if (section !== undefined && typeof section !== 'string')
    check.error('section', 'INVALID_TYPE', 'section must be a string');

  if (check.errors.length > 0) return { ok: false, errors: check.errors };
  return typeof section === 'string'
    ? { ok: true, url, warnings: check.warnings, section }
    : { ok: true, url, warnings: check.warnings };
}

let cachedOrigin: { input: string; origin: string } | undefined;

function originFor(input: string): string {
  if (cachedOrigin?.input === input) return cachedOrigin.origin;
  const result = normalizeHttpUrl(input);
  if (!result.ok) throw new SitemapXmlError('INVALID_ORIGIN', `origin "${input}" is not an absolute http(s) URL`);
  cachedOrigin = { input, origin: result.origin };
  return result.origin;
}

class EntryCheck {
  readonly errors: RuleViolation[] = [];
  readonly warnings: RuleWarning[] = [];

  constructor(private readonly origin: string) {}

  error(field: string, code: string, message: string): undefined {
    this.errors.push({ field, code, message });
    return undefined;
  }

  warn(field: string, code: string, message: string): void {
    this.warnings.push({ field, code, message });
  }

  knownKeys(
    obj: Record<string, unknown>,
    known: ReadonlySet<string>,
    retired: ReadonlySet<string>,
    prefix: string,
  ): void {
    // for-in, not Object.keys: no array per object (four per URL with three alternates); own
    // keys only, as Object.keys.
    for (const key in obj) {
      if (known.has(key) || !Object.hasOwn(obj, key)) continue;
      const field = prefix === '' ? key : `${prefix}.${key}`;
      if (retired.has(key)) {
        if (obj[key] !== undefined && obj[key] !== null) {
          this.warn(field, 'RETIRED_TAG', `${key} is retired by Google and has no effect; it is not written`);
        }
      } else {
        this.error(field, 'UNKNOWN_FIELD', `unknown field "${key}"`);
      }
    }
  }

  /** A trimmed string, or undefined when absent (or invalid, with the error recorded). */
  string(obj: Record<string, unknown>, key: string, field: string, required: boolean): string | undefined {
    const value = obj[key];
    if (value === undefined || value === null) {
      return required ? this.error(field, 'REQUIRED_FIELD', `${field} is required`) : undefined;
    }
    return this.stringValue(value, field, required);
  }

  stringValue(value: unknown, field: string, required: boolean, allowEmpty = false): string | undefined {
    if (typeof value !== 'string') return this.error(field, 'INVALID_TYPE', `${field} must be a string`);
    const bad = findForbiddenChar(value);
    if (bad >= 0) {
      return this.error(
        field,
        'INVALID_CHARACTER',
        `${field} contains a character XML 1.0 forbids (${describeChar(value, bad)})`,
      );
    }
    const trimmed = value.trim();
    if (trimmed === '' && !allowEmpty) {
      return required
        ? this.error(field, 'REQUIRED_FIELD', `${field} is required and must not be blank`)
        : this.error(field, 'EMPTY_VALUE', `${field} must not be blank; omit it instead`);
    }
    return trimmed;
  }

  loc(value: unknown): string | undefined {
    if (value === undefined || value === null) return this.error('loc', 'REQUIRED_FIELD', 'loc is required');
    const raw = this.stringValue(value, 'loc', true);
    if (raw === undefined) return undefined;
    const href = this.httpUrl(raw, 'loc', true);
    if (href === undefined) return undefined;
    if (href.length < MIN_LOC_LENGTH) {
      return this.error('loc', 'LOC_TOO_SHORT', `loc must be at least ${MIN_LOC_LENGTH} characters (sitemap.xsd)`);
    }
    return href;
  }

  /** An absolute http(s) URL, normalized; `isLoc` picks the LOC_ or URL_ code family. */
  httpUrl(raw: string, field: string, isLoc: boolean, sameOrigin = isLoc): string | undefined {
    const result = normalizeHttpUrl(raw);
    if (!result.ok) {
      switch (result.reason) {
        case 'not-absolute':
          return this.error(
            field,
            isLoc ? 'LOC_NOT_ABSOLUTE' : 'URL_NOT_ABSOLUTE',
            `${field} must be an absolute URL with scheme and host`,
          );
        case 'scheme':
          return this.error(field, 'UNSUPPORTED_SCHEME', `${field} must use http or https`);
        case 'credentials':
          return this.error(field, 'INVALID_URL', `${field} must not contain user name or password`);
        case 'invalid':
          return this.error(
            field,
            'INVALID_URL',
            `${field} is not a valid URL (control characters, or a malformed host or port)`,
          );
      }
    }
    if (result.href.length > MAX_URL_LENGTH) {
      return this.error(
        field,
        isLoc ? 'LOC_TOO_LONG' : 'URL_TOO_LONG',
        `${field} is ${result.href.length} characters once encoded; it must be under ${MAX_URL_LENGTH + 1}`,
      );
    }
    if (sameOrigin && result.origin !== this.origin) {
      return this.error(field, 'URL_HOST_MISMATCH', `${field} must be on ${this.origin} (got ${result.origin})`);
    }
    return result.href;
  }

  url(obj: Record<string, unknown>, key: string, field: string, required: boolean): string | undefined {
    const raw = this.string(obj, key, field, required);
    return raw === undefined ? undefined : this.httpUrl(raw, field, false);
  }

  date(obj: Record<string, unknown>, key: string, field: string, rule: DateRule): string | undefined {
    const { code, required } = rule;
    const raw = this.string(obj, key, field, required);
    if (raw === undefined) return undefined;
    const result = normalizeW3cDatetime(raw);
    if (result.ok) return result.value;
    if (result.reason === 'coarse' && !required) {
      this.warn(
        field,
        'DATE_PRECISION_DROPPED',
        `${field} "${raw}" has no day; sitemap schemas need at least YYYY-MM-DD, so it is not written`,
      );
      return undefined;
    }
    const why =
      result.reason === 'impossible'
        ? 'is not a real date and time'
        : result.reason === 'coarse'
          ? 'needs at least a full date (YYYY-MM-DD)'
          : 'must be W3C Datetime: YYYY-MM-DD, or YYYY-MM-DDThh:mm[:ss[.s]] with Z or ±hh:mm';
    return this.error(field, code, `${field} "${raw}" ${why}`);
  }

  number(obj: Record<string, unknown>, key: string, field: string): number | undefined {
    const value = obj[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value))
      return this.error(field, 'INVALID_TYPE', `${field} must be a finite number`);
    return value;
  }

  boolean(obj: Record<string, unknown>, key: string, field: string): boolean | undefined {
    const value = obj[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') return this.error(field, 'INVALID_TYPE', `${field} must be true or false`);
    return value;
  }

  array(value: unknown, field: string): unknown[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.error(field, 'INVALID_TYPE', `${field} must be an array`);
      return [];
    }
    return value;
  }

  record(value: unknown, field: string): Record<string, unknown> | undefined {
    if (!isRecord(value)) return this.error(field, 'INVALID_TYPE', `${field} must be an object`);
    return value;
  }

  relationship(obj: Record<string, unknown>, field: string): Relationship | undefined {
    const raw = this.string(obj, 'relationship', `${field}.relationship`, true);
    if (raw === undefined) return undefined;
    const value = raw.toLowerCase();
    if (value === 'allow' || value === 'deny') return value;
    return this.error(`${field}.relationship`, 'INVALID_RELATIONSHIP', `${field}.relationship must be allow or deny`);
  }

  changefreq(value: unknown): Changefreq | undefined {
    if (value === undefined || value === null) return undefined;
    const raw = this.stringValue(value, 'changefreq', false);
    if (raw === undefined) return undefined;
    const lower = raw.toLowerCase();
    if (CHANGEFREQ_SET.has(lower)) return lower as Changefreq;
    return this.error('changefreq', 'INVALID_CHANGEFREQ', `changefreq must be one of ${CHANGEFREQS.join(', ')}`);
  }

  priority(value: unknown): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      return this.error('priority', 'INVALID_PRIORITY', 'priority must be a number from 0.0 to 1.0');
    }
    return roundPriority(value);
  }

  alternates(value: unknown): SitemapAlternate[] {
    const out: SitemapAlternate[] = [];
    const members: (SitemapAlternate & { index: number })[] = [];
    const items = this.array(value, 'alternates');
    if (items.length > MAX_CLUSTER_SIZE) {
      this.error(
        'alternates',
        'CLUSTER_TOO_LARGE',
        `at most ${MAX_CLUSTER_SIZE} members per hreflang cluster (got ${items.length})`,
      );
      return out;
    }
    for (let index = 0; index < items.length; index++) {
      const field = alternateFields(index);
      const obj = this.record(items[index], field.item);
      if (obj === undefined) continue;
      this.knownKeys(obj, ALTERNATE_KEYS, NONE, field.item);
      const hreflang = this.string(obj, 'hreflang', field.hreflang, true);
      // Alternates may live on other hosts (ccTLDs), so no origin check.
      const href = this.url(obj, 'href', field.href, true);
      if (hreflang !== undefined && href !== undefined) members.push({ hreflang, href, index });
    }
    const violations = clusterViolations(members, 'alternates');
    for (const violation of violations) this.errors.push(violation);
    if (violations.length === 0) {
      // No violations means every code normalized.
      for (const m of members) out.push({ hreflang: normalizeHreflang(m.hreflang)!, href: m.href });
    }
    return out;
  }

  images(value: unknown): SitemapImage[] {
    // Absent: no list check, no closure (every URL of an import without images comes here).
    if (value === undefined || value === null) return [];
    const items = this.array(value, 'images');
    if (items.length > MAX_IMAGES_PER_URL) {
      this.error('images', 'TOO_MANY_IMAGES', `at most ${MAX_IMAGES_PER_URL} images per URL (got ${items.length})`);
      return [];
    }
    const out: SitemapImage[] = [];
    items.forEach((item, index) => {
      const field = `images[${index}]`;
      const obj = this.record(item, field);
      if (obj === undefined) return;
      this.knownKeys(obj, IMAGE_KEYS, IMAGE_RETIRED, field);
      // Images are often on a CDN host; Google allows that.
      const loc = this.url(obj, 'loc', `${field}.loc`, true);
      if (loc !== undefined) out.push({ loc });
    });
    return out;
  }

  videos(value: unknown, pageLoc: string | undefined): SitemapVideo[] {
    if (value === undefined || value === null) return [];
    const out: SitemapVideo[] = [];
    this.array(value, 'videos').forEach((item, index) => {
      const video = this.video(item, `videos[${index}]`, pageLoc);
      if (video !== undefined) out.push(video);
    });
    return out;
  }

  video(item: unknown, field: string, pageLoc: string | undefined): SitemapVideo | undefined {
    const obj = this.record(item, field);
    if (obj === undefined) return undefined;
    this.knownKeys(obj, VIDEO_KEYS, VIDEO_RETIRED, field);
    const f = (key: string) => `${field}.${key}`;

    const thumbnailLoc = this.url(obj, 'thumbnailLoc', f('thumbnailLoc'), true);
    const title = this.string(obj, 'title', f('title'), true);
    if (title !== undefined && title.length > MAX_VIDEO_TITLE_LENGTH) {
      this.error(
        f('title'),
        'VIDEO_TITLE_TOO_LONG',
        `${f('title')} must be at most ${MAX_VIDEO_TITLE_LENGTH} characters`,
      );
    }
    const description = this.string(obj, 'description', f('description'), true);
    if (description !== undefined && description.length > MAX_VIDEO_DESCRIPTION_LENGTH) {
      this.error(
        f('description'),
        'VIDEO_DESCRIPTION_TOO_LONG',
        `${f('description')} must be at most ${MAX_VIDEO_DESCRIPTION_LENGTH} characters`,
      );
    }
    const video: SitemapVideo = {
      thumbnailLoc: thumbnailLoc ?? '',
      title: title ?? '',
      description: description ?? '',
    };

    const contentLoc = this.url(obj, 'contentLoc', f('contentLoc'), false);
    const playerLoc = this.url(obj, 'playerLoc', f('playerLoc'), false);
    if (isAbsent(obj.contentLoc) && isAbsent(obj.playerLoc)) {
      this.error(field, 'VIDEO_LOC_REQUIRED', `${field} needs contentLoc or playerLoc`);
    }
    // Google identifies a video by its file or player URL; the page URL identifies nothing.
    for (const [key, loc] of [
      ['contentLoc', contentLoc],
      ['playerLoc', playerLoc],
    ] as const) {
      if (loc !== undefined && loc === pageLoc) {
        this.error(f(key), 'VIDEO_LOC_EQUALS_PAGE', `${f(key)} must not be the page's own loc`);
      }
    }
    if (contentLoc !== undefined) video.contentLoc = contentLoc;
    if (playerLoc !== undefined) video.playerLoc = playerLoc;

    const duration = this.number(obj, 'duration', f('duration'));
    if (duration !== undefined) {
      if (Number.isInteger(duration) && duration >= MIN_VIDEO_DURATION && duration <= MAX_VIDEO_DURATION)
        video.duration = duration;
      else {
        this.error(
          f('duration'),
          'INVALID_DURATION',
          `${f('duration')} must be whole seconds from ${MIN_VIDEO_DURATION} to ${MAX_VIDEO_DURATION}`,
        );
      }
    }
    const expirationDate = this.date(obj, 'expirationDate', f('expirationDate'), OPTIONAL_DATE);
    if (expirationDate !== undefined) video.expirationDate = expirationDate;
    const rating = this.number(obj, 'rating', f('rating'));
    if (rating !== undefined) {
      if (rating >= 0 && rating <= MAX_VIDEO_RATING) video.rating = Math.round(rating * 100) / 100;
      else this.error(f('rating'), 'INVALID_RATING', `${f('rating')} must be from 0.0 to ${MAX_VIDEO_RATING}.0`);
    }
    const viewCount = this.number(obj, 'viewCount', f('viewCount'));
    if (viewCount !== undefined) {
      if (Number.isSafeInteger(viewCount) && viewCount >= 0) video.viewCount = viewCount;
      else this.error(f('viewCount'), 'INVALID_VIEW_COUNT', `${f('viewCount')} must be a whole number of 0 or more`);
    }
    const publicationDate = this.date(obj, 'publicationDate', f('publicationDate'), OPTIONAL_DATE);
    if (publicationDate !== undefined) video.publicationDate = publicationDate;
    const familyFriendly = this.boolean(obj, 'familyFriendly', f('familyFriendly'));
    if (familyFriendly !== undefined) video.familyFriendly = familyFriendly;
    const restriction = this.restriction(obj.restriction, f('restriction'));
    if (restriction !== undefined) video.restriction = restriction;
    const platform = this.platform(obj.platform, f('platform'));
    if (platform !== undefined) video.platform = platform;
    const requiresSubscription = this.boolean(obj, 'requiresSubscription', f('requiresSubscription'));
    if (requiresSubscription !== undefined) video.requiresSubscription = requiresSubscription;
    const uploader = this.uploader(obj.uploader, f('uploader'));
    if (uploader !== undefined) video.uploader = uploader;
    const live = this.boolean(obj, 'live', f('live'));
    if (live !== undefined) video.live = live;
    const tags = this.tags(obj.tags, f('tags'));
    if (tags.length > 0) video.tags = tags;
    return video;
  }

  restriction(value: unknown, field: string): SitemapVideo['restriction'] {
    if (isAbsent(value)) return undefined;
    const obj = this.record(value, field);
    if (obj === undefined) return undefined;
    this.knownKeys(obj, RESTRICTION_KEYS, NONE, field);
    const relationship = this.relationship(obj, field);
    const countries: string[] = [];
    const items = this.array(obj.countries, `${field}.countries`);
    if (items.length === 0 && Array.isArray(obj.countries)) {
      this.error(
        `${field}.countries`,
        'EMPTY_VALUE',
        `${field}.countries must list at least one country; omit restriction instead`,
      );
    } else if (isAbsent(obj.countries)) {
      this.error(`${field}.countries`, 'REQUIRED_FIELD', `${field}.countries is required`);
    }
    items.forEach((item, index) => {
      const itemField = `${field}.countries[${index}]`;
      const raw = this.stringValue(item, itemField, true);
      if (raw === undefined) return;
      const code = normalizeCountryCode(raw);
      if (code === undefined)
        this.error(itemField, 'INVALID_COUNTRY_CODE', `"${raw}" is not an ISO 3166-1 alpha-2 country code`);
      else if (!countries.includes(code)) countries.push(code);
    });
    return relationship === undefined ? undefined : { relationship, countries };
  }

  platform(value: unknown, field: string): SitemapVideo['platform'] {
    if (isAbsent(value)) return undefined;
    const obj = this.record(value, field);
    if (obj === undefined) return undefined;
    this.knownKeys(obj, PLATFORM_KEYS, NONE, field);
    const relationship = this.relationship(obj, field);
    const platforms: VideoPlatform[] = [];
    const items = this.array(obj.platforms, `${field}.platforms`);
    if (items.length === 0 && Array.isArray(obj.platforms)) {
      this.error(
        `${field}.platforms`,
        'EMPTY_VALUE',
        `${field}.platforms must list at least one platform; omit platform instead`,
      );
    } else if (isAbsent(obj.platforms)) {
      this.error(`${field}.platforms`, 'REQUIRED_FIELD', `${field}.platforms is required`);
    }
    items.forEach((item, index) => {
      const itemField = `${field}.platforms[${index}]`;
      const raw = this.stringValue(item, itemField, true);
      if (raw === undefined) return;
      const name = raw.toLowerCase();
      if (!PLATFORMS.has(name)) this.error(itemField, 'INVALID_PLATFORM', `"${raw}" is not one of web, mobile, tv`);
      else if (!platforms.includes(name as VideoPlatform)) platforms.push(name as VideoPlatform);
    });
    return relationship === undefined ? undefined : { relationship, platforms };
  }

  uploader(value: unknown, field: string): SitemapVideo['uploader'] {
    if (isAbsent(value)) return undefined;
    const obj = this.record(value, field);
    if (obj === undefined) return undefined;
    this.knownKeys(obj, UPLOADER_KEYS, NONE, field);
    const name = this.string(obj, 'name', `${field}.name`, true);
    if (name !== undefined && name.length > MAX_VIDEO_UPLOADER_LENGTH) {
      this.error(
        `${field}.name`,
        'UPLOADER_TOO_LONG',
        `${field}.name must be at most ${MAX_VIDEO_UPLOADER_LENGTH} characters`,
      );
    }
    const info = this.url(obj, 'info', `${field}.info`, false);
    if (name === undefined) return undefined;
    return info === undefined ? { name } : { name, info };
  }

  tags(value: unknown, field: string): string[] {
    const items = this.array(value, field);
    if (items.length > MAX_VIDEO_TAGS) {
      this.error(field, 'TOO_MANY_TAGS', `at most ${MAX_VIDEO_TAGS} tags per video (got ${items.length})`);
      return [];
    }
    const out: string[] = [];
    items.forEach((item, index) => {
      const tag = this.stringValue(item, `${field}[${index}]`, false);
      if (tag !== undefined) out.push(tag);
    });
    return out;
  }

  news(value: unknown): SitemapNews | undefined {
    if (isAbsent(value)) return undefined;
    if (Array.isArray(value)) return this.error('news', 'MULTIPLE_NEWS', 'news is one object per URL, not a list');
    const obj = this.record(value, 'news');
    if (obj === undefined) return undefined;
    this.knownKeys(obj, NEWS_KEYS, NEWS_RETIRED, 'news');
    const publicationName = this.string(obj, 'publicationName', 'news.publicationName', true);
    const rawLanguage = this.string(obj, 'publicationLanguage', 'news.publicationLanguage', true);
    let publicationLanguage: string | undefined;
    if (rawLanguage !== undefined) {
      publicationLanguage = normalizeNewsLanguage(rawLanguage);
      if (publicationLanguage === undefined) {
        this.error(
          'news.publicationLanguage',
          'INVALID_NEWS_LANGUAGE',
          `"${rawLanguage}" is not an ISO 639 language code (two or three letters, or zh-cn / zh-tw)`,
        );
      }
    }
    const publicationDate = this.date(obj, 'publicationDate', 'news.publicationDate', REQUIRED_DATE);
    const title = this.string(obj, 'title', 'news.title', true);
    if (
      publicationName === undefined ||
      publicationLanguage === undefined ||
      publicationDate === undefined ||
      title === undefined
    ) {
      return undefined;
    }
    return { publicationName, publicationLanguage, publicationDate, title };
  }
}

/** Field names of the alternate at `index`, made once: every URL of an import has alternates. */
function alternateFields(index: number): { item: string; hreflang: string; href: string } {
  let names = ALTERNATE_FIELDS[index];
  if (names === undefined) {
    const item = `alternates[${index}]`;
    names = { item, hreflang: `${item}.hreflang`, href: `${item}.href` };
    if (index === ALTERNATE_FIELDS.length && index < 1_000) ALTERNATE_FIELDS.push(names);
  }
  return names;
}
const ALTERNATE_FIELDS: { item: string; hreflang: string; href: string }[] = [];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** The fields a schema names, less those it lists only as retired. */
function fieldsOf(shape: Record<string, unknown>, retired: ReadonlySet<string> = NONE): ReadonlySet<string> {
  return new Set(Object.keys(shape).filter((field) => !retired.has(field)));
}
