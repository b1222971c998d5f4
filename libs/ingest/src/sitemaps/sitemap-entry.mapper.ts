// A <url> as the file spells it, read into the raw entry our preparer validates: the same
// camelCase shape a client sends to the API, so an imported entry meets exactly the rules a PUT
// does. Values are read as the published schemas allow (libs/sitemap-xml/schemas) and no more
// loosely: text trimmed; yes/no in any case (the video schema's tYesNo allows yes, Yes and
// YES); numbers as xsd:decimal and xsd:nonNegativeInteger spell them. A spelling outside those
// is never turned into another value: the field is left unset and a warning says so. What the
// preparer checks further (dates, ranges, codes, URLs) is repaired there (entry-repair.ts).
// Tags Google retired (image caption/title, video category, …) are not carried over.
import type { ImportIssue } from '../imports/import.types';
import type { RawSitemapUrl, RawVideo } from './sitemap-xml.reader';

export interface MappedEntry {
  entry: Record<string, unknown>;
  warnings: ImportIssue[];
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const NON_NEGATIVE_INTEGER = /^\+?\d+$/;

export function entryOfRawUrl(raw: RawSitemapUrl): MappedEntry {
  const warnings: ImportIssue[] = [];
  const read = new ValueReader(warnings);
  const entry: Record<string, unknown> = { loc: raw.loc ?? null };
  if (raw.lastmod !== undefined) entry.lastmod = raw.lastmod;
  if (raw.changefreq !== undefined) entry.changefreq = raw.changefreq;
  const priority = read.decimal(raw.priority, 'priority', 'INVALID_PRIORITY');
  if (priority !== undefined) entry.priority = priority;
  // A sitemap lists each URL's whole cluster; a URL with no links is in none.
  const alternates: { hreflang: string; href: string }[] = [];
  raw.links.forEach((link, index) => {
    const rel = link.rel?.trim().toLowerCase();
    // rel="amphtml", "canonical", app links (rel="alternate" href="android-app://…" without
    // hreflang, Google's old app indexing) are no hreflang alternates.
    if (rel !== undefined && rel !== '' && rel !== 'alternate') return;
    if (rel === 'alternate' && !link.hreflang?.trim() && /^(?:android|ios)-app:/i.test(link.href?.trim() ?? '')) return;
    const missing = (['rel', 'hreflang', 'href'] as const).filter((name) => !link[name]?.trim());
    if (missing.length > 0) {
      warnings.push({
        code: 'REQUIRED_FIELD',
        field: `link[${index}].${missing[0]}`,
        message: `xhtml:link ${index + 1} has no ${missing.join(', no ')}: the link is dropped, the page kept`,
      });
      return;
    }
    alternates.push({ hreflang: link.hreflang as string, href: link.href as string });
  });
  entry.alternates = alternates;
  const images = raw.images.filter((image) => image.loc !== undefined).map((image) => ({ loc: image.loc }));
  if (images.length > 0) entry.images = images;
  if (raw.videos.length > 0) entry.videos = raw.videos.map((video, index) => videoOf(video, `videos[${index}]`, read));
  if (raw.news) {
    entry.news = {
      publicationName: raw.news.name ?? null,
      publicationLanguage: raw.news.language ?? null,
      publicationDate: raw.news.publicationDate ?? null,
      title: raw.news.title ?? null,
    };
  }
  return { entry, warnings };
}

function videoOf(raw: RawVideo, field: string, read: ValueReader): Record<string, unknown> {
  const v = raw.fields;
  const video: Record<string, unknown> = {
    thumbnailLoc: v.thumbnail_loc ?? null,
    title: v.title ?? null,
    description: v.description ?? null,
  };
  if (v.content_loc !== undefined) video.contentLoc = v.content_loc;
  if (v.player_loc !== undefined) video.playerLoc = v.player_loc;
  const duration = read.integer(v.duration, `${field}.duration`, 'INVALID_DURATION');
  if (duration !== undefined) video.duration = duration;
  if (v.expiration_date !== undefined) video.expirationDate = v.expiration_date;
  const rating = read.decimal(v.rating, `${field}.rating`, 'INVALID_RATING');
  if (rating !== undefined) video.rating = rating;
  const viewCount = read.integer(v.view_count, `${field}.viewCount`, 'INVALID_VIEW_COUNT');
  if (viewCount !== undefined) video.viewCount = viewCount;
  if (v.publication_date !== undefined) video.publicationDate = v.publication_date;
  const familyFriendly = read.yesNo(v.family_friendly, `${field}.familyFriendly`);
  if (familyFriendly !== undefined) video.familyFriendly = familyFriendly;
  if (v.restriction !== undefined)
    video.restriction = { relationship: raw.restrictionRelationship ?? null, countries: words(v.restriction) };
  if (v.platform !== undefined)
    video.platform = { relationship: raw.platformRelationship ?? null, platforms: words(v.platform) };
  const requiresSubscription = read.yesNo(v.requires_subscription, `${field}.requiresSubscription`);
  if (requiresSubscription !== undefined) video.requiresSubscription = requiresSubscription;
  if (v.uploader !== undefined)
    video.uploader =
      raw.uploaderInfo === undefined ? { name: v.uploader } : { name: v.uploader, info: raw.uploaderInfo };
  const live = read.yesNo(v.live, `${field}.live`);
  if (live !== undefined) video.live = live;
  if (raw.tags.length > 0) video.tags = raw.tags;
  return video;
}

class ValueReader {
  constructor(private readonly warnings: ImportIssue[]) {}

  yesNo(text: string | undefined, field: string): boolean | undefined {
    if (text === undefined) return undefined;
    const value = text.trim().toLowerCase();
    if (value === 'yes') return true;
    if (value === 'no') return false;
    return this.unset(field, 'INVALID_YES_NO', `"${text}" is not yes or no`);
  }

  decimal(text: string | undefined, field: string, code: string): number | undefined {
    if (text === undefined) return undefined;
    const value = text.trim();
    return DECIMAL.test(value) ? Number(value) : this.unset(field, code, `"${text}" is not a decimal number`);
  }

  integer(text: string | undefined, field: string, code: string): number | undefined {
    if (text === undefined) return undefined;
    const value = text.trim();
    return NON_NEGATIVE_INTEGER.test(value)
      ? Number(value)
      : this.unset(field, code, `"${text}" is not a whole number of 0 or more`);
  }

  private unset(field: string, code: string, why: string): undefined {
    this.warnings.push({ code, field, message: `${field} ${why}: left unset, the page kept` });
    return undefined;
  }
}

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}
