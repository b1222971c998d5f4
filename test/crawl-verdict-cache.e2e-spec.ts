// CRAWL_VERDICT_TTL_MS: the public server keeps an address's reverse-DNS verdict that long, then
// checks again. 127.0.0.3 reverses to a Googlebot name and forward-confirms, so its fetches count
// as verified; then its PTR record moves elsewhere, and once the short verdict lifetime has passed
// its fetches count as unverified. With the default day-long cache they never would in this test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, waitUntil } from '@sitemaps/testing';
import { startDnsServer, type TestDnsServer } from './support/dns.server';
import { startPlatform, type Platform } from './support/platform';
import { createTenantWithSite, type ApiClient } from './support/tenant';

const HOST = 'verdicts.example.com';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const ADDRESS = '127.0.0.3';

describe('crawler verdict cache', () => {
  let dns: TestDnsServer;
  let platform: Platform;
  let api: ApiClient;
  let siteId: string;

  const fetchIndex = () =>
    rawRequest(platform.publicUrl, '/sitemap.xml', {
      host: HOST,
      localAddress: ADDRESS,
      headers: { 'user-agent': GOOGLEBOT },
    });
  const googlebotFetches = async (verified: boolean): Promise<number> => {
    const { body } = await api.get(`/v1/sites/${siteId}/crawls`);
    return (body.days as { crawler: string; verified: boolean; fetches: number }[])
      .filter((day) => day.crawler === 'googlebot' && day.verified === verified)
      .reduce((sum, day) => sum + day.fetches, 0);
  };

  beforeAll(async () => {
    dns = await startDnsServer();
    dns.setPtr(ADDRESS, 'crawl-3.googlebot.com');
    dns.setA('crawl-3.googlebot.com', ADDRESS);
    platform = await startPlatform({
      VERIFICATION_DNS_SERVERS: dns.address,
      CRAWL_FLUSH_MS: '100',
      CRAWL_VERDICT_TTL_MS: '1000',
      CRAWL_FAILED_VERDICT_TTL_MS: '1000',
    });
    ({ api, siteId } = await createTenantWithSite(platform.apiUrl, 'Verdicts', { hostname: HOST }));
    expect((await api.put(`/v1/sites/${siteId}/urls`, [{ loc: `https://${HOST}/a` }])).body.errors).toEqual([]);
    const { body } = await api.post(`/v1/sites/${siteId}/builds`, {});
    expect(await api.waitForBuild(siteId, body.buildId)).toMatchObject({ status: 'published' });
  });
  afterAll(async () => {
    await platform?.close();
    await dns?.close();
  });

  it('checks an address again once its verdict is older than CRAWL_VERDICT_TTL_MS', async () => {
    expect((await fetchIndex()).status).toBe(200);
    await waitUntil('the first fetch counted as verified Googlebot', async () => (await googlebotFetches(true)) === 1);
    dns.setPtr(ADDRESS, 'crawler.impostor.example.net');
    // Each round is one more fetch; the verdict expires after a second and the next check fails.
    await waitUntil(
      'a later fetch counted as unverified',
      async () => {
        expect((await fetchIndex()).status).toBe(200);
        return (await googlebotFetches(false)) > 0;
      },
      { timeoutMs: 30_000 },
    );
    expect(await googlebotFetches(true)).toBeGreaterThanOrEqual(1);
  });
});
