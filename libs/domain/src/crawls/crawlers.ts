// Which search engine a fetch claims to come from (its User-Agent), and how that claim is checked:
// the engines document that their crawlers' addresses reverse-resolve to names under their own
// domains, and that the name resolves back to the same address (forward-confirmed reverse DNS).
// A user agent alone is a claim anyone can make.

export const CRAWLERS = [
  'googlebot',
  'bingbot',
  'yandexbot',
  'applebot',
  'duckduckbot',
  'baiduspider',
  'petalbot',
  'other',
] as const;
export type Crawler = (typeof CRAWLERS)[number];

/**
 * Names a verified address of each crawler reverse-resolves under, as each engine documents them.
 * DuckDuckBot is verified by a published address list, not by DNS: it never shows as verified.
 */
export const CRAWLER_DNS_SUFFIXES: Readonly<Record<Crawler, readonly string[]>> = {
  // developers.google.com/search/docs/crawling-indexing/verifying-googlebot
  googlebot: ['.googlebot.com', '.google.com', '.googleusercontent.com'],
  // bing.com/webmasters/help/how-to-verify-bingbot
  bingbot: ['.search.msn.com'],
  // yandex.com/support/webmaster/robot-workings/check-yandex-robots.html
  yandexbot: ['.yandex.ru', '.yandex.net', '.yandex.com'],
  // support.apple.com/en-us/119829
  applebot: ['.applebot.apple.com'],
  duckduckbot: [],
  // help.baidu.com: Baiduspider's hosts are *.baidu.com or *.baidu.jp
  baiduspider: ['.baidu.com', '.baidu.jp'],
  // aspiegel.com/petalbot
  petalbot: ['.petalsearch.com'],
  other: [],
};

/** Tokens of each crawler's user agents (the crawler and its variants), tried in this order. */
const USER_AGENT_TOKENS: readonly [Crawler, readonly string[]][] = [
  [
    'googlebot',
    [
      'googlebot',
      'google-inspectiontool',
      'googleother',
      'storebot-google',
      'adsbot-google',
      'mediapartners-google',
      'apis-google',
      'feedfetcher-google',
      'google-safety',
    ],
  ],
  ['bingbot', ['bingbot', 'bingpreview', 'msnbot', 'adidxbot']],
  ['yandexbot', ['yandexbot', 'yandex.com/bots', 'yandeximages', 'yandexmobilebot']],
  ['applebot', ['applebot']],
  ['duckduckbot', ['duckduckbot', 'duckduckgo-favicons-bot']],
  ['baiduspider', ['baiduspider']],
  ['petalbot', ['petalbot']],
];

/** The crawler a user agent names; `other` for anything else (browsers, tools, unknown bots). */
export function classifyUserAgent(userAgent: string | undefined): Crawler {
  if (!userAgent) return 'other';
  const lower = userAgent.toLowerCase();
  for (const [crawler, tokens] of USER_AGENT_TOKENS) if (tokens.some((token) => lower.includes(token))) return crawler;
  return 'other';
}

/** Whether a claim of this crawler can be checked by DNS at all. */
export function isVerifiable(crawler: Crawler): boolean {
  return CRAWLER_DNS_SUFFIXES[crawler].length > 0;
}

/** Whether a reverse-DNS name lies under one of the crawler's documented domains. */
export function isCrawlerHostname(crawler: Crawler, hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return CRAWLER_DNS_SUFFIXES[crawler].some((suffix) => name.endsWith(suffix));
}

/** The DNS a check needs: PTR names of an address, and the addresses of a name (A and AAAA). */
export interface CrawlerDns {
  reverse(address: string): Promise<string[]>;
  addresses(hostname: string): Promise<string[]>;
}

/**
 * Forward-confirmed reverse DNS: some PTR name of the address is under the crawler's domains and
 * resolves back to the same address. A DNS failure is a failed check, not an error.
 */
export async function verifyCrawlerAddress(crawler: Crawler, address: string, dns: CrawlerDns): Promise<boolean> {
  if (!isVerifiable(crawler)) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  let names: string[];
  try {
    names = await dns.reverse(plain);
  } catch {
    return false;
  }
  for (const name of names) {
    if (!isCrawlerHostname(crawler, name)) continue;
    try {
      if ((await dns.addresses(name)).includes(plain)) return true;
    } catch {
      // The next name, if any.
    }
  }
  return false;
}

/** What kind of file a served path is, for the insight. */
export type CrawledFileKind = 'robots' | 'index' | 'shard' | 'text' | 'legacy';

/**
 * The file a request path names, under its manifest name (a shard's `.xml` and `.xml.gz` are one
 * file); null: not a sitemap file, not recorded.
 */
export function crawledFile(path: string): { kind: CrawledFileKind; path: string } | null {
  if (path === 'robots.txt') return { kind: 'robots', path };
  if (path === 'sitemap.xml' || path === 'sitemap.xml.gz') return { kind: 'index', path: 'sitemap.xml' };
  if (/^sitemap(?:-[a-z0-9_-]+)?\.txt$/.test(path)) return { kind: 'text', path };
  if (/^sitemap-[a-z0-9_-]+\.xml$/.test(path)) return { kind: 'shard', path: `${path}.gz` };
  if (/^sitemap-[a-z0-9_-]+\.xml\.gz$/.test(path)) return { kind: 'shard', path };
  if (path.startsWith('sitemaps/')) return { kind: 'legacy', path };
  return null;
}
