// Fetches counted on the public server's hot path, then turned into hourly rows off it. Recording a
// fetch is two Map lookups (host, url) and an increment, with the user agent classified once per
// distinct string (a cached lookup). Which site and file a request named, and whether a crawler's address
// is verified, are decided at flush time, once per distinct key rather than once per request.
import { classifyUserAgent, crawledFile, isVerifiable, type Crawler } from './crawlers';

const HOUR_MS = 3_600_000;

export interface CrawlTallyOptions {
  /** Distinct (crawler, address, status, host, url) keys kept between flushes; beyond: dropped and counted. */
  maxKeys: number;
  /** Distinct user agents whose crawler is remembered; the cache starts over when full. */
  maxUserAgents: number;
}

/** Fetches of one key since the last drain. The address is kept (in memory) only for a crawler that can be verified. */
export interface TalliedFetches {
  crawler: Crawler;
  address: string | null;
  status: number;
  host: string;
  url: string;
  fetches: number;
  bytes: number;
  /** Epoch ms of the first and last fetch. */
  firstAt: number;
  lastAt: number;
}

/** What the server knows of a request once it has answered it. */
export interface AnsweredRequest {
  host: string | undefined;
  url: string | undefined;
  userAgent: string | undefined;
  /** The client's address (as the access log has it). */
  address: string | undefined;
  status: number;
  bytes: number | undefined;
  /** Epoch ms. */
  at: number;
}

interface Count {
  crawler: Crawler;
  address: string | null;
  status: number;
  fetches: number;
  bytes: number;
  firstAt: number;
  lastAt: number;
}

export class CrawlTally {
  /** host -> url -> the few (crawler, address, status) seen for it. Nested maps of the request's own
   *  strings: a key built by concatenation cost ten times as much per request (flattened, then hashed). */
  private counts = new Map<string, Map<string, Count[]>>();
  private size = 0;
  private readonly crawlers = new Map<string, Crawler>();
  /**
   * The last request's host, url and user agent with what they led to. A crawler fetches in runs
   * over one connection, sending the same strings: comparing them is a memcmp, where a Map lookup
   * hashes each new string the parser made (the tally was a tenth of a 304's CPU, +8%).
   */
  private lastHost: string | undefined;
  private lastByUrl: Map<string, Count[]> | undefined;
  private lastUrl: string | undefined;
  private lastList: Count[] | undefined;
  private lastUserAgent: string | undefined;
  private lastCrawler: Crawler = 'other';
  /** Fetches not counted because the map was full. */
  dropped = 0;

  constructor(private readonly options: CrawlTallyOptions) {}

  /** One answered request. Anything that cannot be a sitemap file returns at the first test. */
  record({ host, url, userAgent, address, status, bytes, at }: AnsweredRequest): void {
    if (host === undefined || url === undefined || !(url.includes('sitemap') || url.endsWith('robots.txt'))) return;
    const crawler = this.crawlerOf(userAgent);
    const kept = isVerifiable(crawler) ? (address ?? null) : null;
    let list = this.lastList;
    if (list === undefined || url !== this.lastUrl || host !== this.lastHost) {
      let byUrl = host === this.lastHost ? this.lastByUrl : this.counts.get(host);
      if (!byUrl) this.counts.set(host, (byUrl = new Map()));
      list = byUrl.get(url);
      if (!list) byUrl.set(url, (list = []));
      this.lastHost = host;
      this.lastByUrl = byUrl;
      this.lastUrl = url;
      this.lastList = list;
    }
    for (const count of list) {
      if (count.status === status && count.crawler === crawler && count.address === kept) {
        count.fetches += 1;
        count.bytes += bytes ?? 0;
        count.lastAt = at;
        return;
      }
    }
    if (this.size >= this.options.maxKeys) {
      this.dropped += 1;
      return;
    }
    this.size += 1;
    list.push({ crawler, address: kept, status, fetches: 1, bytes: bytes ?? 0, firstAt: at, lastAt: at });
  }

  /** What was counted since the last drain; the tally starts empty. */
  drain(): TalliedFetches[] {
    const counts = this.counts;
    this.counts = new Map();
    this.size = 0;
    this.lastHost = this.lastByUrl = this.lastUrl = this.lastList = undefined;
    const drained: TalliedFetches[] = [];
    for (const [host, byUrl] of counts)
      for (const [url, list] of byUrl) for (const count of list) drained.push({ host, url, ...count });
    return drained;
  }

  private crawlerOf(userAgent: string | undefined): Crawler {
    if (userAgent === undefined) return 'other';
    if (userAgent === this.lastUserAgent) return this.lastCrawler;
    let crawler = this.crawlers.get(userAgent);
    if (crawler === undefined) {
      if (this.crawlers.size >= this.options.maxUserAgents) this.crawlers.clear();
      crawler = classifyUserAgent(userAgent);
      this.crawlers.set(userAgent, crawler);
    }
    this.lastUserAgent = userAgent;
    this.lastCrawler = crawler;
    return crawler;
  }
}

/** One row of `crawl_fetches`: fetches of one file by one crawler with one status in one hour. */
export interface CrawlFetchRow {
  siteId: string;
  hour: Date;
  path: string;
  crawler: Crawler;
  verified: boolean;
  status: number;
  fetches: number;
  bytes: number;
  firstAt: Date;
  lastAt: Date;
}

export interface CrawlRowPorts {
  /** The site and the path within it a request named; undefined: no site served there. */
  resolve(host: string, url: string): { siteId: string; path: string } | undefined;
  /** Whether the address is a verified crawler; undefined: not known yet (being checked). */
  verdict(crawler: Crawler, address: string): boolean | undefined;
}

/**
 * Drained fetches as hourly rows. A verifiable crawler's fetches whose address is still being
 * checked wait (`waiting`) until `giveUpBefore`, after which they count as unverified. Only
 * sitemap files (robots.txt, the index, shards, text files, old names) make rows.
 */
export function crawlRows(
  fetches: TalliedFetches[],
  ports: CrawlRowPorts,
  giveUpBefore: number,
): { rows: CrawlFetchRow[]; waiting: TalliedFetches[] } {
  const rows = new Map<string, CrawlFetchRow>();
  const waiting: TalliedFetches[] = [];
  for (const fetch of fetches) {
    const target = ports.resolve(fetch.host, fetch.url);
    const file = target && crawledFile(target.path);
    if (!target || !file) continue;
    let verified = false;
    if (fetch.address !== null) {
      const verdict = ports.verdict(fetch.crawler, fetch.address);
      if (verdict === undefined && fetch.firstAt >= giveUpBefore) {
        waiting.push(fetch);
        continue;
      }
      verified = verdict === true;
    }
    addRow(rows, {
      siteId: target.siteId,
      hour: new Date(Math.floor(fetch.lastAt / HOUR_MS) * HOUR_MS),
      path: file.path,
      crawler: fetch.crawler,
      verified,
      status: fetch.status,
      fetches: fetch.fetches,
      bytes: fetch.bytes,
      firstAt: new Date(fetch.firstAt),
      lastAt: new Date(fetch.lastAt),
    });
  }
  return { rows: [...rows.values()], waiting };
}

/**
 * Rows of the same key added together, in the order each key came first: rows a flush could not
 * write join the next flush's, and one INSERT … ON CONFLICT may name a key only once.
 */
export function mergeCrawlRows(rows: Iterable<CrawlFetchRow>): CrawlFetchRow[] {
  const merged = new Map<string, CrawlFetchRow>();
  for (const row of rows) addRow(merged, { ...row });
  return [...merged.values()];
}

/** Adds `row` to the row of its key, or keeps it as that row (owned by `rows` from then on). */
function addRow(rows: Map<string, CrawlFetchRow>, row: CrawlFetchRow): void {
  const key = `${row.siteId}\n${row.hour.getTime()}\n${row.path}\n${row.crawler}\n${row.verified}\n${row.status}`;
  const into = rows.get(key);
  if (!into) return void rows.set(key, row);
  into.fetches += row.fetches;
  into.bytes += row.bytes;
  if (row.firstAt < into.firstAt) into.firstAt = row.firstAt;
  if (row.lastAt > into.lastAt) into.lastAt = row.lastAt;
}

/** A read in the insight's sense: the crawler got the file (200, 206) or was told it has it (304). */
export function isRead(status: number): boolean {
  return (status >= 200 && status < 300) || status === 304;
}
