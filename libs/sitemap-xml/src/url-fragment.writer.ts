import { escapeXml as esc } from './escape';
import { MAX_VIDEO_DURATION, MAX_VIDEO_RATING, MIN_VIDEO_DURATION, PRIORITY_DECIMALS } from './limits';
import { Namespace } from './namespaces';
import { SitemapXmlError } from './sitemap-xml.errors';
import {
  CHANGEFREQS,
  type SitemapAlternate,
  type SitemapNews,
  type SitemapUrl,
  type SitemapVideo,
} from './sitemap-xml.types';

// One `<url>` element as a string, built by concatenation (design.md: no DOM, no streams).
// Rendered once when a URL's content changes and stored with its byte length, so a shard
// build only joins stored fragments. Element order follows the XSDs: loc, lastmod,
// changefreq, priority, then xhtml:link, image, video, news (any order is allowed there).
//
// Input is trusted to be normalized (normalizeUrlEntry), but the writer still refuses what
// would make the file invalid XML or fail the schema: forbidden characters (via escapeXml)
// and out-of-range numbers throw SitemapXmlError; nothing is silently dropped.

/** A rendered fragment with what a file needs to know about it. */
export interface UrlFragment {
  xml: string | Buffer;
  /** UTF-8 byte length of `xml`. */
  bytes: number;
  /** Namespace bits (see `Namespace`) the fragment uses. */
  mask: number;
}

const CHANGEFREQ_SET: ReadonlySet<string> = new Set(CHANGEFREQS);

/** The range of a decimal element and the digits written after the point. */
interface DecimalRange {
  min: number;
  max: number;
  digits: number;
}
const PRIORITY: DecimalRange = { min: 0, max: 1, digits: PRIORITY_DECIMALS };
const VIDEO_RATING: DecimalRange = { min: 0, max: MAX_VIDEO_RATING, digits: 2 };

export function renderUrlFragment(url: SitemapUrl): string {
  let xml = '<url><loc>' + esc(url.loc) + '</loc>';
  if (url.lastmod !== undefined) xml += '<lastmod>' + esc(url.lastmod) + '</lastmod>';
  if (url.changefreq !== undefined) {
    if (!CHANGEFREQ_SET.has(url.changefreq)) throw invalid('changefreq', url.changefreq);
    xml += '<changefreq>' + url.changefreq + '</changefreq>';
  }
  if (url.priority !== undefined) xml += '<priority>' + decimal('priority', url.priority, PRIORITY) + '</priority>';
  const { alternates, images, videos, news } = url;
  if (alternates !== undefined) {
    for (let i = 0; i < alternates.length; i++) {
      const a = alternates[i]!;
      xml += alternateLinkXml(a);
    }
  }
  if (images !== undefined) {
    for (let i = 0; i < images.length; i++) {
      xml += '<image:image><image:loc>' + esc(images[i]!.loc) + '</image:loc></image:image>';
    }
  }
  if (videos !== undefined) {
    for (let i = 0; i < videos.length; i++) xml += renderVideo(videos[i]!);
  }
  if (news !== undefined) xml += renderNews(news);
  return xml + '</url>';
}

/** One hreflang link as a fragment holds it. */
export function alternateLinkXml(a: SitemapAlternate): string {
  return '<xhtml:link rel="alternate" hreflang="' + esc(a.hreflang) + '" href="' + esc(a.href) + '"/>';
}

/**
 * A stored fragment without its links to `dropped` hrefs (URLs the site excludes from its
 * files), `links` being the cluster it was rendered with. Google reads a cluster of one as no
 * cluster, so a URL left alone with itself loses every link.
 */
export function withoutAlternates(
  fragment: string,
  links: readonly SitemapAlternate[],
  dropped: ReadonlySet<string>,
): string {
  const kept = links.filter((link) => !dropped.has(link.href));
  if (kept.length === links.length) return fragment;
  let xml = fragment;
  const removed = kept.length > 1 ? links.filter((link) => dropped.has(link.href)) : links;
  for (const link of removed) xml = xml.replace(alternateLinkXml(link), '');
  return xml;
}

/** Renders and measures; what the ingest path stores with the row. */
export function toUrlFragment(url: SitemapUrl): UrlFragment {
  const xml = renderUrlFragment(url);
  return { xml, bytes: Buffer.byteLength(xml, 'utf8'), mask: namespacesOf(url) };
}

export function namespacesOf(url: SitemapUrl): number {
  let mask = 0;
  if (url.alternates !== undefined && url.alternates.length > 0) mask |= Namespace.XHTML;
  if (url.images !== undefined && url.images.length > 0) mask |= Namespace.IMAGE;
  if (url.videos !== undefined && url.videos.length > 0) mask |= Namespace.VIDEO;
  if (url.news !== undefined) mask |= Namespace.NEWS;
  return mask;
}

function renderVideo(v: SitemapVideo): string {
  let xml =
    '<video:video><video:thumbnail_loc>' +
    esc(v.thumbnailLoc) +
    '</video:thumbnail_loc>' +
    '<video:title>' +
    esc(v.title) +
    '</video:title>' +
    '<video:description>' +
    esc(v.description) +
    '</video:description>';
  if (v.contentLoc !== undefined) xml += '<video:content_loc>' + esc(v.contentLoc) + '</video:content_loc>';
  if (v.playerLoc !== undefined) xml += '<video:player_loc>' + esc(v.playerLoc) + '</video:player_loc>';
  if (v.duration !== undefined) {
    xml +=
      '<video:duration>' +
      integer('video duration', v.duration, MIN_VIDEO_DURATION, MAX_VIDEO_DURATION) +
      '</video:duration>';
  }
  if (v.expirationDate !== undefined)
    xml += '<video:expiration_date>' + esc(v.expirationDate) + '</video:expiration_date>';
  if (v.rating !== undefined)
    xml += '<video:rating>' + decimal('video rating', v.rating, VIDEO_RATING) + '</video:rating>';
  if (v.viewCount !== undefined) {
    xml +=
      '<video:view_count>' +
      integer('video view count', v.viewCount, 0, Number.MAX_SAFE_INTEGER) +
      '</video:view_count>';
  }
  if (v.publicationDate !== undefined)
    xml += '<video:publication_date>' + esc(v.publicationDate) + '</video:publication_date>';
  if (v.tags !== undefined) {
    for (let i = 0; i < v.tags.length; i++) xml += '<video:tag>' + esc(v.tags[i]!) + '</video:tag>';
  }
  if (v.familyFriendly !== undefined)
    xml += '<video:family_friendly>' + yesNo(v.familyFriendly) + '</video:family_friendly>';
  if (v.restriction !== undefined) {
    xml +=
      '<video:restriction relationship="' +
      relationship(v.restriction.relationship) +
      '">' +
      esc(v.restriction.countries.join(' ')) +
      '</video:restriction>';
  }
  if (v.requiresSubscription !== undefined) {
    xml += '<video:requires_subscription>' + yesNo(v.requiresSubscription) + '</video:requires_subscription>';
  }
  if (v.uploader !== undefined) {
    xml +=
      (v.uploader.info === undefined ? '<video:uploader>' : '<video:uploader info="' + esc(v.uploader.info) + '">') +
      esc(v.uploader.name) +
      '</video:uploader>';
  }
  if (v.platform !== undefined) {
    xml +=
      '<video:platform relationship="' +
      relationship(v.platform.relationship) +
      '">' +
      esc(v.platform.platforms.join(' ')) +
      '</video:platform>';
  }
  if (v.live !== undefined) xml += '<video:live>' + yesNo(v.live) + '</video:live>';
  return xml + '</video:video>';
}

function renderNews(n: SitemapNews): string {
  return (
    '<news:news><news:publication><news:name>' +
    esc(n.publicationName) +
    '</news:name>' +
    '<news:language>' +
    esc(n.publicationLanguage) +
    '</news:language></news:publication>' +
    '<news:publication_date>' +
    esc(n.publicationDate) +
    '</news:publication_date>' +
    '<news:title>' +
    esc(n.title) +
    '</news:title></news:news>'
  );
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

function relationship(value: string): string {
  if (value !== 'allow' && value !== 'deny') throw invalid('relationship', value);
  return value;
}

/** Fixed-point decimal: no exponent notation, which xsd:decimal does not accept. */
function decimal(what: string, value: number, { min, max, digits }: DecimalRange): string {
  if (typeof value !== 'number' || !(value >= min && value <= max)) throw invalid(what, value);
  const fixed = value.toFixed(digits);
  // 0.550 → 0.55, 3.00 → 3.0: one decimal is enough to say "decimal", more zeros are noise.
  const firstDecimal = fixed.length - digits;
  let end = fixed.length;
  while (end > firstDecimal + 1 && fixed.charCodeAt(end - 1) === ZERO) end--;
  return end === fixed.length ? fixed : fixed.slice(0, end);
}

const ZERO = 48;

function integer(what: string, value: number, min: number, max: number): string {
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(what, value);
  return String(value);
}

function invalid(what: string, value: unknown): SitemapXmlError {
  return new SitemapXmlError('INVALID_VALUE', `${what} ${JSON.stringify(value)} cannot be written`, { what });
}
