// Truthful lastmod: a URL's content hash covers everything written for it except a lastmod the
// platform set itself. Equal hash: nothing changed (no write, no dirty shard, no IndexNow).
import { createHash } from 'node:crypto';

export function locHash(loc: string): Buffer {
  return createHash('sha256').update(loc).digest();
}

/** Stable JSON: object keys sorted, so equal content always hashes equally. */
function canonical(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
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

export function contentHash(content: UrlContent): Buffer {
  return createHash('sha256').update(canonical(content)).digest();
}

/** The platform's lastmod for a content change at `now`: W3C datetime in UTC, whole seconds. */
export function platformLastmod(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

/** A W3C datetime as an instant (a date means its midnight UTC), for "newest lastmod" math. */
export function lastmodInstant(lastmod: string): Date {
  if (/^\d{4}$/.test(lastmod)) return new Date(`${lastmod}-01-01T00:00:00Z`);
  if (/^\d{4}-\d{2}$/.test(lastmod)) return new Date(`${lastmod}-01T00:00:00Z`);
  if (/^\d{4}-\d{2}-\d{2}$/.test(lastmod)) return new Date(`${lastmod}T00:00:00Z`);
  return new Date(lastmod);
}
