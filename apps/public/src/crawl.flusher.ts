// Off the hot path: every CRAWL_FLUSH_MS, the fetches the lane and Fastify counted (CrawlTally)
// become hourly rows in Postgres. A crawler's claim is checked here, by forward-confirmed reverse
// DNS, once per address (cached for CRAWL_VERDICT_TTL_MS); fetches wait for their address's verdict for up to
// VERDICT_WAIT_MS. Addresses live only in this process's memory, never in a row. While Postgres is
// unreachable, rows wait in memory (at most MAX_UNWRITTEN) and go with the next flush that can write.
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Logger } from '@nestjs/common';
import { isDatabaseUnavailable, type CrawlRepository } from '@sitemaps/data';
import {
  crawlRows,
  mergeCrawlRows,
  type CrawlFetchRow,
  verifyCrawlerAddress,
  type Crawler,
  type CrawlerDns,
  type CrawlTally,
  type TalliedFetches,
} from '@sitemaps/domain';
import type { ManifestReader } from '@sitemaps/serving';
import { resolveTarget } from './request-target';

/** How long fetches wait for their address's check before they count as unverified. */
const VERDICT_WAIT_MS = 30_000;
const MAX_VERDICTS = 10_000;
/** DNS checks in flight at once; more addresses wait for a later flush. */
const MAX_CHECKS = 16;
/** Fetches kept waiting for verdicts (or for Postgres, to learn their site); beyond, the oldest are dropped. */
const MAX_WAITING = 20_000;
/** Rows kept while Postgres cannot be written (a key per site, hour, file, crawler and status): about 10 MB. */
const MAX_UNWRITTEN = 50_000;

/** Why fetches went uncounted: the tally was full, too many waited, or too many rows waited for Postgres. */
export type CrawlDropReason = 'keys' | 'waiting' | 'unwritten';

export interface CrawlFlusherOptions {
  flushMs: number;
  /** PUBLIC_BASE_URL's host, where sites are served under `/s/<hostname>/`. */
  platformHost: string | null;
  /** How long a verdict on an address is kept (CRAWL_VERDICT_TTL_MS). */
  verdictTtlMs: number;
  /** A failed check (a DNS outage among the reasons) is tried again sooner (CRAWL_FAILED_VERDICT_TTL_MS). */
  failedVerdictTtlMs: number;
  /** Told of fetches dropped uncounted (a metric). */
  onDropped?: (reason: CrawlDropReason, fetches: number) => void;
}

/** node:dns over VERIFICATION_DNS_SERVERS (else the system's resolvers). */
export function crawlerDns(servers: string[] | undefined): CrawlerDns {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  if (servers) resolver.setServers(servers);
  return {
    // A PTR query, not `reverse`: c-ares answers `reverse` from /etc/hosts first, where loopback
    // and the host's own addresses have names no crawler's DNS gave them.
    reverse: (address) => resolver.resolvePtr(reverseName(address)),
    addresses: async (hostname) => {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      return [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    },
  };
}

/** `1.2.3.4` -> `4.3.2.1.in-addr.arpa`; an IPv6 address by nibbles under `ip6.arpa`. */
export function reverseName(address: string): string {
  if (isIP(address) === 4) return `${address.split('.').reverse().join('.')}.in-addr.arpa`;
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const missing = 8 - groups(head).length - groups(tail).length;
  const full = [...groups(head), ...Array<string>(address.includes('::') ? missing : 0).fill('0'), ...groups(tail)];
  const nibbles = full.map((group) => group.padStart(4, '0')).join('');
  return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
}

export class CrawlFlusher {
  private readonly logger = new Logger('crawls');
  private readonly verdicts = new Map<string, { verified: boolean; expiresAt: number }>();
  private readonly checking = new Set<string>();
  private waiting: TalliedFetches[] = [];
  /** Rows a flush could not write because Postgres was unreachable: written with the next. */
  private unwritten: CrawlFetchRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly tally: CrawlTally,
    private readonly reader: ManifestReader,
    private readonly crawls: CrawlRepository,
    private readonly dns: CrawlerDns,
    private readonly options: CrawlFlusherOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs).unref();
  }

  /** Stops the timer and writes what was counted. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
    await this.flush(true);
  }

  /** One flush at a time; a tick that finds one running skips. */
  flush(final = false): Promise<void> {
    if (this.flushing) return this.flushing;
    this.flushing = this.write(final)
      .catch((error: Error) => this.logger.warn(`crawl counts not written: ${error.message}`))
      .finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async write(final: boolean): Promise<void> {
    const fetches = this.waiting.concat(this.tally.drain());
    this.waiting = [];
    if (this.tally.dropped > 0) {
      this.logger.warn(`${this.tally.dropped} fetches not counted: too many distinct keys between flushes`);
      this.options.onDropped?.('keys', this.tally.dropped);
      this.tally.dropped = 0;
    }
    if (fetches.length === 0 && this.unwritten.length === 0) return;
    const { sites, unreadable } = await this.sites(fetches);
    const now = Date.now();
    for (const fetch of fetches) if (fetch.address !== null) this.check(fetch.crawler, fetch.address, now);
    const { rows, waiting } = crawlRows(
      fetches,
      {
        resolve: (host, url) => {
          const target = resolveTarget(host, url, this.options.platformHost);
          if (target === null || target === 'bad-request') return undefined;
          const siteId = sites.get(target.hostname);
          return siteId ? { siteId, path: target.path } : undefined;
        },
        verdict: (crawler, address) => this.verdict(crawler, address, now),
      },
      final ? Infinity : now - VERDICT_WAIT_MS,
    );
    // Fetches of a hostname Postgres could not be asked about wait too: their site is learnt later.
    if (unreadable.size > 0) waiting.unshift(...fetches.filter((fetch) => unreadable.has(this.hostnameOf(fetch))));
    this.waiting = waiting.length > MAX_WAITING ? waiting.slice(-MAX_WAITING) : waiting;
    this.dropped('waiting', waiting.slice(0, waiting.length - this.waiting.length));
    const pending = this.unwritten.length > 0 ? mergeCrawlRows([...this.unwritten, ...rows]) : rows;
    this.unwritten = [];
    try {
      await this.crawls.record(pending);
    } catch (error) {
      // Not written (one transaction: nothing of it was): kept for the next flush while Postgres is
      // away. Any other failure would fail again; its rows are dropped, as the warning says.
      if (final || !isDatabaseUnavailable(error)) {
        this.dropped('unwritten', pending);
        throw error;
      }
      this.unwritten = pending.length > MAX_UNWRITTEN ? pending.slice(-MAX_UNWRITTEN) : pending;
      this.dropped('unwritten', pending.slice(0, pending.length - this.unwritten.length));
      throw new Error(
        `${error instanceof Error ? error.message : String(error)} (${this.unwritten.length} rows kept for the next flush)`,
      );
    }
  }

  private dropped(reason: CrawlDropReason, lost: readonly { fetches: number }[]): void {
    if (lost.length === 0) return;
    const fetches = lost.reduce((sum, entry) => sum + entry.fetches, 0);
    this.logger.warn(`${fetches} fetches not counted (${reason})`);
    this.options.onDropped?.(reason, fetches);
  }

  private hostnameOf(fetch: TalliedFetches): string {
    const target = resolveTarget(fetch.host, fetch.url, this.options.platformHost);
    return target === null || target === 'bad-request' ? '' : target.hostname;
  }

  /**
   * The site id of each hostname the fetches name (cached by the reader: the requests loaded
   * them), and the hostnames Postgres could not be asked about now.
   */
  private async sites(fetches: TalliedFetches[]): Promise<{ sites: Map<string, string>; unreadable: Set<string> }> {
    const sites = new Map<string, string>();
    const unreadable = new Set<string>();
    const hosts = new Set<string>();
    for (const fetch of fetches) {
      const target = resolveTarget(fetch.host, fetch.url, this.options.platformHost);
      if (target !== null && target !== 'bad-request') hosts.add(target.hostname);
    }
    for (const hostname of hosts) {
      const snapshot =
        this.reader.peek(hostname) ??
        (await this.reader.load(hostname).catch((error: unknown) => {
          if (isDatabaseUnavailable(error)) unreadable.add(hostname);
          return null;
        }));
      if (snapshot) sites.set(hostname, snapshot.site.id);
    }
    return { sites, unreadable };
  }

  private verdict(crawler: Crawler, address: string, now: number): boolean | undefined {
    const verdict = this.verdicts.get(`${crawler} ${address}`);
    return verdict && verdict.expiresAt > now ? verdict.verified : undefined;
  }

  /** Starts a check of the address unless one is known or running. */
  private check(crawler: Crawler, address: string, now: number): void {
    const key = `${crawler} ${address}`;
    if (this.verdict(crawler, address, now) !== undefined || this.checking.has(key)) return;
    if (this.checking.size >= MAX_CHECKS || isIP(address.replace(/^::ffff:/, '')) === 0) return;
    this.checking.add(key);
    void verifyCrawlerAddress(crawler, address, this.dns)
      .then((verified) => {
        if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.clear();
        this.verdicts.set(key, {
          verified,
          expiresAt: Date.now() + (verified ? this.options.verdictTtlMs : this.options.failedVerdictTtlMs),
        });
      })
      .finally(() => this.checking.delete(key));
  }
}
