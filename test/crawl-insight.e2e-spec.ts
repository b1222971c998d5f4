// What search engines read, as a tenant sees it: two clients on loopback claim to be Googlebot.
// 127.0.0.1 reverse-resolves to crawl-1.googlebot.com and that name back to it (a local DNS
// server the public server asks); 127.0.0.2 reverse-resolves elsewhere. The first shows as
// verified Googlebot with its last read of each file, the second only as unverified fetches; a
// shard changed by a republish waits for Googlebot until it is fetched again; the first verified
// read of the index reaches the tenant's webhook endpoint once.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv } from '@sitemaps/config';
import { rawRequest, waitUntil } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { startDnsServer, type TestDnsServer } from './support/dns.server';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createTenantWithSite, type ApiClient } from './support/tenant';

const HOST = 'crawled.example.com';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const url = (path: string) => `https://${HOST}${path}`;
const CLI = path.join(__dirname, '..', 'apps/cli/bin/sitemaps.js');

describe('crawl insight', () => {
  let dns: TestDnsServer;
  let platform: Platform;
  let api: ApiClient;
  let siteId: string;
  let webhookId: string;
  let tenantKey: string;
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200).end('ok');
    });
  });

  const fetchAs = (path: string, localAddress: string, userAgent = GOOGLEBOT) =>
    rawRequest(platform.publicUrl, path, { host: HOST, localAddress, headers: { 'user-agent': userAgent } });
  const insight = async () => {
    const res = await api.get(`/v1/sites/${siteId}/crawls`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const publish = async () => {
    const { body } = await api.post(`/v1/sites/${siteId}/builds`, {});
    expect(await api.waitForBuild(siteId, body.buildId)).toMatchObject({ status: 'published' });
  };

  beforeAll(async () => {
    dns = await startDnsServer();
    dns.setPtr('127.0.0.1', 'crawl-1.googlebot.com');
    dns.setA('crawl-1.googlebot.com', '127.0.0.1');
    dns.setPtr('127.0.0.2', 'crawler.impostor.example.net');
    dns.setA('crawler.impostor.example.net', '127.0.0.2');
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    platform = await startPlatform({
      VERIFICATION_DNS_SERVERS: dns.address,
      CRAWL_FLUSH_MS: '100',
      CRAWL_EVENTS_EVERY_MS: '200',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      // Builds run only when a test asks for one.
      BUILD_QUIET_MS: '600000',
      BUILD_MAX_WAIT_MS: '600000',
    });
    ({ apiKey: tenantKey, api, siteId } = await createTenantWithSite(platform.apiUrl, 'Crawled', { hostname: HOST }));
    const hook = await api.post('/v1/webhooks', {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      eventTypes: ['sitemap.first_crawl'],
    });
    expect(hook.status).toBe(201);
    webhookId = hook.body.id;
    const entries = ['blog', 'products'].flatMap((section) =>
      [1, 2, 3].map((n) => ({ loc: url(`/${section}/${n}`), lastmod: `2026-03-0${n}`, section })),
    );
    expect((await api.put(`/v1/sites/${siteId}/urls`, entries)).body.errors).toEqual([]);
    await publish();
  });
  afterAll(async () => {
    await platform?.close();
    await dns?.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  let shards: string[];
  let firstReads: Record<string, string>;

  it('shows a verified Googlebot with its last read of each file, and an impostor only as unverified fetches', async () => {
    const before = await insight();
    expect(before.crawlers).toEqual([]);
    shards = before.files
      .filter((file: { kind: string }) => file.kind === 'shard')
      .map((f: { path: string }) => f.path);
    expect(shards).toEqual(['sitemap-blog-1.xml.gz', 'sitemap-products-1.xml.gz']);
    expect(before.files.every((file: { waitingFor: string[] }) => file.waitingFor.length === 0)).toBe(true);

    // The impostor reads everything first: none of it may count as Googlebot's reads.
    for (const path of ['/robots.txt', '/sitemap.xml', ...shards.map((p) => `/${p}`)])
      expect((await fetchAs(path, '127.0.0.2')).status).toBe(200);
    for (const path of ['/robots.txt', '/sitemap.xml', ...shards.map((p) => `/${p}`)])
      expect((await fetchAs(path, '127.0.0.1')).status).toBe(200);
    // An old file name: an error served to a crawler.
    expect((await fetchAs('/sitemap-gone-9.xml.gz', '127.0.0.1')).status).toBe(404);

    const seen = await waitUntil(
      'verified and unverified Googlebot fetches',
      async (seen) => {
        const view = seen(await insight());
        const verified = view.days.find((d: any) => d.crawler === 'googlebot' && d.verified);
        const unverified = view.days.find((d: any) => d.crawler === 'googlebot' && !d.verified);
        return verified?.fetches === 5 &&
          unverified?.fetches === 4 &&
          view.files.every((f: any) => f.reads.length === 1)
          ? view
          : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(seen.crawlers).toEqual([
      { crawler: 'googlebot', firstReadAt: expect.any(String), lastReadAt: expect.any(String) },
    ]);
    firstReads = {};
    for (const file of seen.files) {
      expect(file.reads).toEqual([{ crawler: 'googlebot', lastReadAt: expect.any(String), readSinceChange: true }]);
      expect(file.waitingFor).toEqual([]);
      firstReads[file.path] = file.reads[0].lastReadAt;
    }
    expect(seen.errors).toEqual([
      expect.objectContaining({ path: 'sitemap-gone-9.xml.gz', status: 404, crawler: 'googlebot', verified: true }),
    ]);
    expect(seen.lastChange).toMatchObject({ crawler: 'googlebot', firstVerifiedReadAt: expect.any(String) });
    // The operator sees the totals of every site.
    const totals = await apiClient(platform.apiUrl, ADMIN_KEY).get('/v1/admin/crawls');
    expect(totals.body.days).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ crawler: 'googlebot', verified: true, fetches: 5, sites: 1 }),
        expect.objectContaining({ crawler: 'googlebot', verified: false, fetches: 4, sites: 1 }),
      ]),
    );
    // GraphQL shows the same reads.
    const graphql = await api.post('/graphql', {
      query:
        'query($siteId: ID!) { crawls(siteId: $siteId) { crawlers { crawler lastReadAt } files { path reads { crawler lastReadAt } } } }',
      variables: { siteId },
    });
    expect(graphql.body.data.crawls).toEqual({
      crawlers: [{ crawler: 'googlebot', lastReadAt: seen.crawlers[0].lastReadAt }],
      files: seen.files.map((file: any) => ({
        path: file.path,
        reads: [{ crawler: 'googlebot', lastReadAt: file.reads[0].lastReadAt }],
      })),
    });
  });

  it('shows a republished shard as unread by Googlebot until it is fetched again', async () => {
    expect((await api.put(`/v1/sites/${siteId}/urls`, [{ loc: url('/blog/4'), section: 'blog' }])).body.errors).toEqual(
      [],
    );
    await publish();
    const changed = await insight();
    const blog = changed.files.find((file: any) => file.path === 'sitemap-blog-1.xml.gz');
    expect(blog).toMatchObject({
      reads: [{ crawler: 'googlebot', lastReadAt: firstReads['sitemap-blog-1.xml.gz'], readSinceChange: false }],
      waitingFor: ['googlebot'],
    });
    expect(changed.files.find((file: any) => file.path === 'sitemap-products-1.xml.gz')).toMatchObject({
      waitingFor: [],
    });
    // The CLI says the same.
    const cli = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'sites', 'crawls', HOST], {
        env: childProcessEnv({ SITEMAPS_API_URL: platform.apiUrl, SITEMAPS_API_KEY: tenantKey }),
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });
    expect(cli).toMatch(/sitemap-blog-1\.xml\.gz .*googlebot .* waiting for googlebot/);
    expect(cli).not.toMatch(/sitemap-products-1\.xml\.gz .*waiting/);
    // The impostor's read changes nothing.
    expect((await fetchAs('/sitemap-blog-1.xml.gz', '127.0.0.2')).status).toBe(200);
    expect((await fetchAs('/sitemap-blog-1.xml', '127.0.0.1')).status).toBe(200);
    const read = await waitUntil('the changed shard read again', async (seen) => {
      const file = seen(await insight()).files.find((f: any) => f.path === 'sitemap-blog-1.xml.gz');
      return file.waitingFor.length === 0 ? file : undefined;
    });
    expect(read.reads).toEqual([{ crawler: 'googlebot', lastReadAt: expect.any(String), readSinceChange: true }]);
  });

  it('sends sitemap.first_crawl once, for the verified crawler', async () => {
    await waitUntil('sitemap.first_crawl at the endpoint', () => events.length > 0);
    // Later reads of the index by the same crawler, counted and processed, send nothing more.
    // The last read is taken before the fetch: read after it, it may already include the fetch.
    const last = (await insight()).crawlers[0].lastReadAt;
    expect((await fetchAs('/sitemap.xml', '127.0.0.1')).status).toBe(200);
    await waitUntil('the later read counted', async () => (await insight()).crawlers[0].lastReadAt !== last);
    expect((await api.get(`/v1/webhooks/${webhookId}/deliveries`)).body.items).toHaveLength(1);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'sitemap.first_crawl',
        data: { siteId, crawler: 'googlebot', path: 'sitemap.xml', readAt: expect.any(String) },
      }),
    ]);
  });
});
