import { describe, expect, it } from 'vitest';
import { crawledFiles } from './crawl-insight';
import { crawlRows, CrawlTally } from './crawl-tally';
import { classifyUserAgent, crawledFile, verifyCrawlerAddress, type CrawlerDns } from './crawlers';
import type { ManifestFile } from '../builds/manifest-merge';

describe('classifyUserAgent', () => {
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'googlebot'],
    ['Googlebot-Image/1.0', 'googlebot'],
    ['Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)', 'googlebot'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'bingbot'],
    ['Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)', 'yandexbot'],
    [
      'Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari (Applebot/0.1)',
      'applebot',
    ],
    ['DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)', 'duckduckbot'],
    ['Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)', 'baiduspider'],
    ['Mozilla/5.0 (compatible;PetalBot;+https://webmaster.petalsearch.com/site/petalbot)', 'petalbot'],
    ['Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0', 'other'],
    [undefined, 'other'],
  ])('%s is %s', (userAgent, crawler) => {
    expect(classifyUserAgent(userAgent)).toBe(crawler);
  });
});

describe('crawledFile', () => {
  it('names files as the manifest does, and ignores what is not a sitemap file', () => {
    expect(crawledFile('sitemap.xml')).toEqual({ kind: 'index', path: 'sitemap.xml' });
    expect(crawledFile('sitemap-blog-2.xml')).toEqual({ kind: 'shard', path: 'sitemap-blog-2.xml.gz' });
    expect(crawledFile('sitemap-1.xml.gz')).toEqual({ kind: 'shard', path: 'sitemap-1.xml.gz' });
    expect(crawledFile('sitemap-2.txt')).toEqual({ kind: 'text', path: 'sitemap-2.txt' });
    expect(crawledFile('robots.txt')).toEqual({ kind: 'robots', path: 'robots.txt' });
    expect(crawledFile('sitemaps/sitemap-1.xml.gz')).toMatchObject({ kind: 'legacy' });
    expect(crawledFile('about/sitemap.html')).toBeNull();
  });
});

describe('verifyCrawlerAddress', () => {
  const dns = (ptr: Record<string, string[]>, a: Record<string, string[]>): CrawlerDns => ({
    reverse: async (address) => ptr[address] ?? Promise.reject(new Error('ENOTFOUND')),
    addresses: async (name) => a[name] ?? [],
  });

  it('needs the reverse name under the documented domain and the forward lookup back to the address', async () => {
    const world = dns(
      { '66.249.66.1': ['crawl-66-249-66-1.googlebot.com'], '10.0.0.1': ['googlebot.com.evil.net'] },
      { 'crawl-66-249-66-1.googlebot.com': ['66.249.66.1'], 'googlebot.com.evil.net': ['10.0.0.1'] },
    );
    expect(await verifyCrawlerAddress('googlebot', '66.249.66.1', world)).toBe(true);
    expect(await verifyCrawlerAddress('googlebot', '::ffff:66.249.66.1', world)).toBe(true);
    // A name under someone else's domain, however it starts.
    expect(await verifyCrawlerAddress('googlebot', '10.0.0.1', world)).toBe(false);
    // Bing's address list is not Google's.
    expect(await verifyCrawlerAddress('bingbot', '66.249.66.1', world)).toBe(false);
    // No PTR record at all.
    expect(await verifyCrawlerAddress('googlebot', '192.0.2.1', world)).toBe(false);
  });

  it('refuses a PTR record that names a crawler host resolving elsewhere (a spoofed PTR)', async () => {
    const world = dns({ '203.0.113.9': ['crawl-1.googlebot.com'] }, { 'crawl-1.googlebot.com': ['66.249.66.1'] });
    expect(await verifyCrawlerAddress('googlebot', '203.0.113.9', world)).toBe(false);
  });
});

describe('CrawlTally and crawlRows', () => {
  const site = (host: string, url: string) =>
    host === 'a.example.com' ? { siteId: 'site-a', path: url.slice(1).split('?')[0] ?? '' } : undefined;

  it('counts per key, keeps an address only for a crawler that can be verified, and bounds its keys', () => {
    const tally = new CrawlTally({ maxKeys: 3, maxUserAgents: 10 });
    const googlebot = 'Googlebot/2.1';
    tally.record({
      host: 'a.example.com',
      url: '/sitemap.xml',
      userAgent: googlebot,
      address: '66.249.66.1',
      status: 200,
      bytes: 100,
      at: 1_000,
    });
    tally.record({
      host: 'a.example.com',
      url: '/sitemap.xml',
      userAgent: googlebot,
      address: '66.249.66.1',
      status: 304,
      bytes: undefined,
      at: 2_000,
    });
    tally.record({
      host: 'a.example.com',
      url: '/sitemap.xml',
      userAgent: googlebot,
      address: '66.249.66.1',
      status: 200,
      bytes: 100,
      at: 3_000,
    });
    tally.record({
      host: 'a.example.com',
      url: '/sitemap.xml',
      userAgent: 'curl/8',
      address: '192.0.2.1',
      status: 200,
      bytes: 100,
      at: 3_000,
    });
    tally.record({
      host: 'a.example.com',
      url: '/page.html',
      userAgent: 'curl/8',
      address: '192.0.2.1',
      status: 200,
      bytes: 100,
      at: 3_000,
    });
    tally.record({
      host: 'a.example.com',
      url: '/sitemap-1.xml',
      userAgent: 'DuckDuckBot/1.1',
      address: '20.191.45.212',
      status: 200,
      bytes: 50,
      at: 3_000,
    });
    expect(tally.dropped).toBe(1);
    const drained = tally.drain();
    expect(drained).toEqual([
      expect.objectContaining({ crawler: 'googlebot', address: '66.249.66.1', status: 200, fetches: 2, bytes: 200 }),
      expect.objectContaining({ crawler: 'googlebot', address: '66.249.66.1', status: 304, fetches: 1 }),
      expect.objectContaining({ crawler: 'other', address: null, url: '/sitemap.xml', fetches: 1 }),
    ]);
    expect(tally.drain()).toEqual([]);
  });

  it('counts runs and interleavings of hosts, urls and user agents apart, and starts afresh after a drain', () => {
    const tally = new CrawlTally({ maxKeys: 100, maxUserAgents: 10 });
    // Fresh strings of equal text, as the HTTP parser makes for every request.
    const fresh = (text: string) => Buffer.from(text).toString();
    const fetch = (host: string, url: string, userAgent: string, at: number) =>
      tally.record({
        host: fresh(host),
        url: fresh(url),
        userAgent: fresh(userAgent),
        address: '66.249.66.1',
        status: 200,
        bytes: 1,
        at,
      });
    const summary = () =>
      tally
        .drain()
        .map((f) => `${f.host}${f.url} ${f.crawler} ${f.address ?? '-'} ${f.fetches} ${f.firstAt}-${f.lastAt}`)
        .sort();
    fetch('a.example.com', '/sitemap.xml', 'Googlebot/2.1', 1);
    fetch('a.example.com', '/sitemap.xml', 'Googlebot/2.1', 2);
    fetch('b.example.com', '/sitemap.xml', 'Googlebot/2.1', 3);
    fetch('a.example.com', '/sitemap.xml', 'curl/8.0', 4);
    fetch('a.example.com', '/sitemap-1.xml', 'curl/8.0', 5);
    fetch('a.example.com', '/sitemap.xml', 'Googlebot/2.1', 6);
    fetch('b.example.com', '/sitemap-1.xml', 'Googlebot/2.1', 7);
    expect(summary()).toEqual([
      'a.example.com/sitemap-1.xml other - 1 5-5',
      'a.example.com/sitemap.xml googlebot 66.249.66.1 3 1-6',
      'a.example.com/sitemap.xml other - 1 4-4',
      'b.example.com/sitemap-1.xml googlebot 66.249.66.1 1 7-7',
      'b.example.com/sitemap.xml googlebot 66.249.66.1 1 3-3',
    ]);
    // The same request again after a drain is counted in the new tally, not in the drained one.
    fetch('b.example.com', '/sitemap-1.xml', 'Googlebot/2.1', 8);
    expect(summary()).toEqual(['b.example.com/sitemap-1.xml googlebot 66.249.66.1 1 8-8']);
    expect(tally.drain()).toEqual([]);
  });

  it('turns drained fetches into hourly rows, waiting for verdicts until it gives up', () => {
    const tally = new CrawlTally({ maxKeys: 100, maxUserAgents: 10 });
    const hour = Date.UTC(2026, 10, 26, 4);
    tally.record({
      host: 'a.example.com',
      url: '/sitemap-1.xml',
      userAgent: 'Googlebot',
      address: '66.249.66.1',
      status: 200,
      bytes: 10,
      at: hour + 5,
    });
    tally.record({
      host: 'a.example.com',
      url: '/sitemap-1.xml.gz',
      userAgent: 'Googlebot',
      address: '66.249.66.2',
      status: 200,
      bytes: 10,
      at: hour + 9,
    });
    tally.record({
      host: 'a.example.com',
      url: '/sitemap-1.xml.gz',
      userAgent: 'Googlebot',
      address: '198.51.100.1',
      status: 200,
      bytes: 10,
      at: hour + 7,
    });
    tally.record({
      host: 'b.example.com',
      url: '/sitemap.xml',
      userAgent: 'Googlebot',
      address: '66.249.66.1',
      status: 200,
      bytes: 10,
      at: hour + 7,
    });
    const verdicts: Record<string, boolean> = { '66.249.66.1': true, '66.249.66.2': true };
    const first = crawlRows(tally.drain(), { resolve: site, verdict: (_, address) => verdicts[address] }, hour);
    expect(first.rows).toEqual([
      {
        siteId: 'site-a',
        hour: new Date(hour),
        path: 'sitemap-1.xml.gz',
        crawler: 'googlebot',
        verified: true,
        status: 200,
        fetches: 2,
        bytes: 20,
        firstAt: new Date(hour + 5),
        lastAt: new Date(hour + 9),
      },
    ]);
    expect(first.waiting).toEqual([expect.objectContaining({ address: '198.51.100.1' })]);
    const later = crawlRows(first.waiting, { resolve: site, verdict: () => undefined }, hour + 8);
    expect(later.rows).toEqual([expect.objectContaining({ verified: false, fetches: 1 })]);
    expect(later.waiting).toEqual([]);
  });
});

describe('crawledFiles', () => {
  const file = (kind: ManifestFile['kind'], modifiedAt: string): ManifestFile => ({
    sha256: 'x',
    kind,
    byteSize: 1,
    gzipSize: 1,
    urlCount: 1,
    lastmod: null,
    modifiedAt,
  });

  it('shows which changed files a crawler that reads the index has not read since', () => {
    const files = {
      'sitemap-2.xml.gz': file('shard', '2026-11-26T03:00:00Z'),
      'sitemap-10.xml.gz': file('shard', '2026-11-26T01:00:00Z'),
      'sitemap.xml': file('index', '2026-11-26T03:00:00Z'),
    };
    const at = (iso: string) => new Date(iso);
    const { crawlers, files: views } = crawledFiles(files, [
      {
        path: 'sitemap.xml',
        crawler: 'googlebot',
        firstAt: at('2026-11-20T00:00:00Z'),
        lastAt: at('2026-11-26T04:00:00Z'),
      },
      {
        path: 'sitemap-2.xml.gz',
        crawler: 'googlebot',
        firstAt: at('2026-11-20T00:00:00Z'),
        lastAt: at('2026-11-26T02:00:00Z'),
      },
      {
        path: 'sitemap-10.xml.gz',
        crawler: 'googlebot',
        firstAt: at('2026-11-20T00:00:00Z'),
        lastAt: at('2026-11-26T02:00:00Z'),
      },
    ]);
    expect(crawlers.map((c) => c.crawler)).toEqual(['googlebot']);
    expect(views.map((v) => [v.path, v.waitingFor])).toEqual([
      ['sitemap.xml', []],
      ['sitemap-2.xml.gz', ['googlebot']],
      ['sitemap-10.xml.gz', []],
    ]);
  });
});
