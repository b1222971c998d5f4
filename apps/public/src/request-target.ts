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

/** Host values seen, normalised: a server sees few distinct ones, and every request names one. */
const hostnames = new Map<string, string | null>();
/** Distinct values remembered; a flood of made-up hosts starts the memo over, never grows it. */
const MAX_HOSTNAMES = 1_000;

/** `Example.COM:8080` -> `example.com`; null when it cannot be a DNS hostname. */
export function normalizeHostname(value: string | undefined): string | null {
  if (!value) return null;
  // Three regular expressions per request were a fifth of the in-memory lane (bench:hot-path).
  let hostname = hostnames.get(value);
  if (hostname === undefined) {
    const normalized = value.trim().toLowerCase().replace(/:\d*$/, '').replace(/\.$/, '');
    hostname = normalized.length <= 253 && HOSTNAME.test(normalized) ? normalized : null;
    if (hostnames.size >= MAX_HOSTNAMES) hostnames.clear();
    hostnames.set(value, hostname);
  }
  return hostname;
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
  if (hasControlCharacter(path) || (path.includes('/.') && DOT_SEGMENT.test(path))) return null;
  return path.slice(1);
}

/** U+0000–U+001F or U+007F: a loop over the characters, cheaper than a regular expression per request. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

const SLASH = 0x2f;

/** A `.` or `..` segment anywhere in a path that starts with `/`. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/** `http://` or `https://`, the authority, and the rest (path and query, or nothing). */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)(.*)$/i;
/** RFC 3986's host (an IP literal or a reg-name, percent-encoding allowed) and port; no userinfo. */
const AUTHORITY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9\-._~!$&'()*+,;=%]+)(?::\d*)?$/i;

/**
 * An absolute-form target (`GET http://example.com/sitemap.xml`), which RFC 9112 §3.2.2 says a
 * server MUST accept: its authority stands for Host (the Host header is ignored) and the rest
 * is the path. Null when the scheme is not http(s) or the authority is malformed.
 */
export function splitAbsoluteForm(url: string): { authority: string; path: string } | null {
  const match = ABSOLUTE_FORM.exec(url);
  const authority = match?.[1] ?? '';
  const rest = match?.[2] ?? '';
  if (!match || !AUTHORITY.test(authority) || rest.startsWith('#')) return null;
  // `http://example.com` and `http://example.com?x` name the root, as `/` and `/?x` would.
  return { authority, path: rest.startsWith('/') ? rest : `/${rest}` };
}

/** The host a request is addressed to: an absolute-form target's authority, else Host. */
export function requestHost(host: string | undefined, url: string): string | undefined {
  return url.charCodeAt(0) === SLASH ? host : (splitAbsoluteForm(url)?.authority ?? host);
}

/**
 * Host-based: `Host: example.com` + `/sitemap.xml`. Path-based, on the platform's own host
 * (PUBLIC_BASE_URL): `/s/example.com/sitemap.xml`. An absolute-form target carries its own host.
 */
export function resolveTarget(host: string | undefined, url: string, platformHost: string | null): TargetResolution {
  // Origin-form (`/…`) is nearly every request: one character test keeps it as cheap as before.
  if (url.charCodeAt(0) === SLASH) return resolveOriginForm(host, url, platformHost);
  const absolute = splitAbsoluteForm(url);
  return absolute ? resolveOriginForm(absolute.authority, absolute.path, platformHost) : 'bad-request';
}

function resolveOriginForm(host: string | undefined, url: string, platformHost: string | null): TargetResolution {
  const hostname = normalizeHostname(host);
  const path = parseRequestPath(url);
  if (path === null) return 'bad-request';
  if (hostname === null) return null;
  if (hostname !== platformHost) return { hostname, path };

  const match = /^s\/([^/]+)\/(.*)$/.exec(path);
  const siteHostname = normalizeHostname(match?.[1]);
  return match && siteHostname ? { hostname: siteHostname, path: match[2] ?? '' } : null;
}
