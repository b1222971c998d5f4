// IRIs in, URIs out. WHATWG URL does the heavy lifting (punycode hosts, UTF-8
// percent-encoding of non-ASCII, existing escapes kept); a second pass encodes the few
// ASCII characters WHATWG leaves alone but RFC 3986 does not allow outside the host
// (`[ ] { } | ^ \` and backtick, `"` `<` `>` in some components) and a `%` that does not start an
// escape, so every written URL is a strict URI.

export type HttpUrlResult =
  | { ok: true; href: string; origin: string }
  | { ok: false; reason: 'not-absolute' | 'scheme' | 'invalid' | 'credentials' };

// A host must follow "//": WHATWG would read "https:///x" as host "x".
const ABSOLUTE_HTTP = /^https?:\/\/[^/\\?#]/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// Tab, CR and LF inside a URL are removed silently by WHATWG; other C0 controls are encoded.
// Either way the URL the client meant is gone, so refuse instead of guessing.
// eslint-disable-next-line no-control-regex -- C0 controls and DEL are what a URL is refused for
const CONTROL = /[\u0000-\u001F\u007F]/;
const TRIM = /^[ \t\r\n]+|[ \t\r\n]+$/g;

// A URL already in the strict form the WHATWG path below produces comes back unchanged from it:
// lower-case http(s) scheme and DNS host (its last label not a number, no punycode to check),
// no port, user info, percent escape, dot segment or character either pass would encode, and a
// path. Recognising it skips URL parsing, the costliest step of validating a bulk import.
// url.rules.spec.ts checks the two agree on every URL this accepts.
const ALREADY_STRICT =
  /^(?:https?:\/\/(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z](?:[a-z0-9-]*[a-z0-9])?)\/[A-Za-z0-9\-._~!$&()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?]+)?(?:#[A-Za-z0-9\-._~!$&()*+,;=:@/?]+)?$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;

export function normalizeHttpUrl(raw: string): HttpUrlResult {
  if (ALREADY_STRICT.test(raw) && !DOT_SEGMENT.test(raw) && !raw.includes('xn--')) {
    // The origin ends at the path's first slash, after `http://` (7) or `https://` (8).
    return { ok: true, href: raw, origin: raw.slice(0, raw.indexOf('/', raw.charCodeAt(4) === 0x73 ? 8 : 7)) };
  }
  return whatwgNormalizeHttpUrl(raw);
}

/** The general path: WHATWG parsing, then strict RFC 3986 encoding of what it leaves. */
export function whatwgNormalizeHttpUrl(raw: string): HttpUrlResult {
  const input = raw.replace(TRIM, '');
  if (!ABSOLUTE_HTTP.test(input)) {
    const scheme = HAS_SCHEME.exec(input)?.[0].toLowerCase();
    return { ok: false, reason: scheme && scheme !== 'http:' && scheme !== 'https:' ? 'scheme' : 'not-absolute' };
  }
  if (CONTROL.test(input)) return { ok: false, reason: 'invalid' };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.hostname === '') return { ok: false, reason: 'not-absolute' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'credentials' };
  const href =
    `${url.protocol}//${url.host}${strictComponent(url.pathname, PATH_EXTRA)}` +
    (url.search === '' ? '' : '?' + strictComponent(url.search.slice(1), QUERY_EXTRA)) +
    (url.hash === '' ? '' : '#' + strictComponent(url.hash.slice(1), FRAGMENT_EXTRA));
  return { ok: true, href, origin: url.origin };
}

// RFC 3986 pchar = unreserved / pct-encoded / sub-delims / ":" / "@"; query and fragment add
// "/" and "?"; path segments are joined with "/".
const PATH_EXTRA = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]|%(?![0-9A-Fa-f]{2})/g;
const QUERY_EXTRA = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]|%(?![0-9A-Fa-f]{2})/g;
const FRAGMENT_EXTRA = QUERY_EXTRA;

function strictComponent(component: string, disallowed: RegExp): string {
  disallowed.lastIndex = 0;
  return disallowed.test(component) ? component.replace(disallowed, percentEncode) : component;
}

function percentEncode(ch: string): string {
  // Only ASCII reaches here: WHATWG has already encoded everything else as UTF-8.
  return '%' + ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
}

/** The origin (`https://host[:port]`) of an absolute http(s) URL, or undefined. */
export function originOf(value: string): string | undefined {
  const result = normalizeHttpUrl(value);
  return result.ok ? result.origin : undefined;
}
