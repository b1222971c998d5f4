// The Sitemap: lines of a robots.txt, read as Google's robots.txt parser reads them
// (github.com/google/robotstxt, robots.cc): a leading UTF-8 BOM skipped; lines end at CR, LF or
// CRLF; `#` starts a comment; the key is what precedes the first `:` (or, when a line has no
// colon, the first of exactly two whitespace-separated words); a key starting with `sitemap` or
// `site-map`, in any case, names a sitemap. Whatever Google reads as a sitemap, we read too.

/** Where a Sitemap: value came from: its 1-based line, and the value as written. */
export interface RobotsSitemapLine {
  line: number;
  value: string;
}

const SITEMAP_KEYS = ['sitemap', 'site-map'] as const;

export function sitemapLinesOfRobotsTxt(text: string): RobotsSitemapLine[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const found: RobotsSitemapLine[] = [];
  const lines = body.split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index++) {
    const pair = keyAndValue(lines[index] as string);
    if (!pair) continue;
    const key = pair.key.toLowerCase();
    if (SITEMAP_KEYS.some((sitemap) => key.startsWith(sitemap)) && pair.value !== '')
      found.push({ line: index + 1, value: pair.value });
  }
  return found;
}

function keyAndValue(raw: string): { key: string; value: string } | undefined {
  const hash = raw.indexOf('#');
  const line = (hash === -1 ? raw : raw.slice(0, hash)).trim();
  let sep = line.indexOf(':');
  if (sep === -1) {
    // Google accepts whitespace for a forgotten colon, when the line is exactly two words.
    const words = line.split(/[ \t]+/);
    if (words.length !== 2) return undefined;
    sep = line.search(/[ \t]/);
  }
  const key = line.slice(0, sep).trim();
  if (key === '') return undefined;
  return { key, value: line.slice(sep + 1).trim() };
}
