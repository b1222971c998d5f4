// Truthful lastmod: a URL's content hash covers everything written for it except a lastmod the
// platform set itself. Equal hash: nothing changed (no write, no dirty shard, no IndexNow).
import { hash } from 'node:crypto';
import { w3cInstant } from '@sitemaps/sitemap-xml';

/**
 * One-shot hashing: a Hash object per call cost more than the digest itself in bulk ingest. The
 * digest comes out as hex and is decoded: on Node 20 that is faster than asking for a Buffer
 * (1.2 against 1.5 µs for a 250-character loc, measured).
 */
export function sha256(text: string): Buffer {
  return Buffer.from(hash('sha256', text), 'hex');
}

/**
 * Bytes of a loc hash: the first 16 of the loc's sha256, the key of every lookup by loc
 * (`urls.loc_hash`, `pending_alternates.href_hash`). 32 bytes made the btree that keyed URLs
 * until then 24% larger and a level taller from about a million URLs (docs/scaling.md). 128 bits
 * keep a collision within a site out of reach: about n² / 2¹²⁹, 1.5 × 10⁻²¹ for a billion URLs.
 */
export const LOC_HASH_BYTES = 16;

export function locHash(loc: string): Buffer {
  return Buffer.from(hash('sha256', loc).slice(0, LOC_HASH_BYTES * 2), 'hex');
}

/** A loc's hash and its hex form (the key of per-URL maps), for the price of one digest. */
export function locHashWithHex(loc: string): { hash: Buffer; hex: string } {
  const hex = hash('sha256', loc).slice(0, LOC_HASH_BYTES * 2);
  return { hash: Buffer.from(hex, 'hex'), hex };
}

/** Stable JSON: object keys sorted, so equal content always hashes equally. */
export function canonicalJson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface UrlContent {
  loc: string;
  section: string;
  /** Only when the client gave it. */
  lastmod?: string;
  changefreq?: string;
  priority?: number;
  alternates?: { hreflang: string; href: string }[];
  images?: unknown;
  videos?: unknown;
  news?: unknown;
}

/** UrlContent's keys in canonicalJson's order. */
const CONTENT_KEYS = [
  'alternates',
  'changefreq',
  'images',
  'lastmod',
  'loc',
  'news',
  'priority',
  'section',
  'videos',
] as const;

/**
 * canonicalJson(content), byte for byte (stored hashes depend on it), without its generic
 * sorting and arrays: this runs for every URL of a bulk import.
 */
export function canonicalContent(content: UrlContent): string {
  let out = '{';
  let present = 0;
  for (const key of CONTENT_KEYS) {
    if (!(key in content)) continue;
    present += 1;
    const value = content[key];
    if (value === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}"${key}":${key === 'alternates' ? canonicalLinks(value as UrlContent['alternates'] & object) : canonicalJson(value)}`;
  }
  // A key outside UrlContent (the type allows none, a caller's spread might): the generic form.
  return present === Object.keys(content).length ? `${out}}` : canonicalJson(content);
}

/**
 * Joined, not built with `+=`: a string built piece by piece is a tree of its pieces (V8's cons
 * strings), and the links' JSON is kept from preparing a batch to writing it: 1 KB per URL with
 * three links, against 0.3 KB flat, which a PUT of 10,000 URLs holds through its transaction.
 */
function canonicalLinks(links: readonly { hreflang: string; href: string }[] | null): string {
  if (links === null) return 'null';
  if (links.length === 0) return '[]';
  const parts = new Array<string>(links.length);
  for (let i = 0; i < links.length; i++) {
    const link = links[i] as { hreflang: string; href: string };
    const plain = typeof link.href === 'string' && typeof link.hreflang === 'string' && ownKeyCount(link) === 2;
    parts[i] = plain
      ? `{"href":${jsonString(link.href)},"hreflang":${jsonString(link.hreflang)}}`
      : canonicalJson(link);
  }
  // The brackets inside the first and last parts: around the joined text they would make a
  // tree again.
  parts[0] = `[${parts[0] as string}`;
  parts[links.length - 1] = `${parts[links.length - 1] as string}]`;
  return parts.join(',');
}

/** Object.keys(value).length without the array: this runs for every link of every URL. */
function ownKeyCount(value: object): number {
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key)) count++;
  return count;
}

/** What JSON.stringify escapes in a string: quote, backslash, C0 controls, and (if lone) surrogates. */
// eslint-disable-next-line no-control-regex -- C0 controls are what JSON.stringify escapes
const JSON_ESCAPED = /["\\\u0000-\u001F\uD800-\uDFFF]/;

/**
 * JSON.stringify(text), byte for byte. Hrefs and codes are normalized URIs and tags with nothing
 * to escape, so they are only quoted; JSON.stringify per string was most of the links' cost.
 */
function jsonString(text: string): string {
  return JSON_ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}

export function contentHash(content: UrlContent): Buffer {
  return sha256(canonicalContent(content));
}

/** A URL's own fields, as UrlContent has them, apart from those the caller passes on their own. */
export type UrlFields = Omit<UrlContent, 'section' | 'lastmod' | 'alternates'>;

/**
 * canonicalJson(links). A URL's links go into its content hash and its stored `alternates`
 * column: callers compute this text once and pass it to both.
 */
export function linksJson(links: readonly { hreflang: string; href: string }[]): string {
  return canonicalLinks(links);
}

/**
 * contentHash({ ...url, section, lastmod, alternates: links }), byte for byte, without building
 * that object or sorting its keys: this runs for every URL of a bulk import. `links` is
 * `linksJson` of the URL's links, or undefined when it has none.
 */
export function urlContentHash(
  url: UrlFields,
  section: string,
  lastmod: string | undefined,
  links: string | undefined,
): Buffer {
  // Keys in canonicalJson's order; `loc` and `section` are always there.
  let out = links === undefined ? '{' : `{"alternates":${links},`;
  if (url.changefreq !== undefined) out += `"changefreq":${JSON.stringify(url.changefreq)},`;
  if (url.images !== undefined) out += `"images":${canonicalJson(url.images)},`;
  if (lastmod !== undefined) out += `"lastmod":${jsonString(lastmod)},`;
  out += `"loc":${jsonString(url.loc)},`;
  if (url.news !== undefined) out += `"news":${canonicalJson(url.news)},`;
  if (url.priority !== undefined) out += `"priority":${canonicalJson(url.priority)},`;
  out += `"section":${jsonString(section)}`;
  if (url.videos !== undefined) out += `,"videos":${canonicalJson(url.videos)}`;
  return sha256(`${out}}`);
}

/** The platform's lastmod for a content change at `now`: W3C datetime in UTC, whole seconds. */
export function platformLastmod(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

/** A W3C datetime as an instant (a date means its midnight UTC), for "newest lastmod" math. */
export function lastmodInstant(lastmod: string): Date {
  return w3cInstant(lastmod);
}
