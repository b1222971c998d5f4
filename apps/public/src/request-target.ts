// Which site and which manifest path a request names. The manifest is the only index of paths,
// so nothing here touches a filesystem; malformed or traversal-shaped paths are still refused
// outright so they never reach a lookup or a log as something meaningful.

export interface RequestTarget {
  /** Lowercase hostname of the site, no port. */
  hostname: string;
  /** Decoded path without the leading slash, e.g. `sitemaps/sitemap-1.xml.gz`. */
  path: string;
}

/** `bad-request`: malformed or traversal-shaped; null: nothing is served there. */
export type TargetResolution = RequestTarget | 'bad-request' | null;

const HOSTNAME = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;

/** `Example.COM:8080` -> `example.com`; null when it cannot be a DNS hostname. */
export function normalizeHostname(value: string | undefined): string | null {
  if (!value) return null;
  const hostname = value.trim().toLowerCase().replace(/:\d*$/, '').replace(/\.$/, '');
  return hostname.length <= 253 && HOSTNAME.test(hostname) ? hostname : null;
}

/** The decoded path of a request URL without its leading slash, or null if it is not a plain path. */
export function parseRequestPath(url: string): string | null {
  const query = url.indexOf('?');
  const raw = query < 0 ? url : url.slice(0, query);
  if (!raw.startsWith('/') || raw.includes('\\')) return null;
  let path = raw;
  // Most request targets have nothing to decode: skip the work (it is on every request).
  if (raw.includes('%')) {
    // An encoded separator would let one segment pose as two after decoding.
    if (/%(?:2f|5c)/i.test(raw)) return null;
    try {
      path = decodeURIComponent(raw);
    } catch {
      return null;
    }
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path) || DOT_SEGMENT.test(path)) return null;
  return path.slice(1);
}

/** A `.` or `..` segment anywhere in a path that starts with `/`. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/**
 * Host-based: `Host: example.com` + `/sitemap.xml`. Path-based, on the platform's own host
 * (PUBLIC_BASE_URL): `/s/example.com/sitemap.xml`.
 */
export function resolveTarget(host: string | undefined, url: string, platformHost: string | null): TargetResolution {
  const hostname = normalizeHostname(host);
  const path = parseRequestPath(url);
  if (path === null) return 'bad-request';
  if (hostname === null) return null;
  if (hostname !== platformHost) return { hostname, path };

  const match = /^s\/([^/]+)\/(.*)$/.exec(path);
  const siteHostname = normalizeHostname(match?.[1]);
  return match && siteHostname ? { hostname: siteHostname, path: match[2] ?? '' } : null;
}
