// sitemap.stale through the real worker: a site sets staleAfterDays (REST, GraphQL, CLI), publishes
// three shards, and time moves by writing the manifest's modifiedAt and the crawl reads directly
// (not by waiting days). The shards no verified crawler read since they changed reach the tenant's
// webhook endpoint once each; the one read since does not; a later version of a shard does again.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv } from '@sitemaps/config';
import { waitUntil } from '@sitemaps/testing';
import { startPlatform, type Platform } from './support/platform';
import { createTenantWithSite, type ApiClient } from './support/tenant';

const HOST = 'stale.example.com';
const CLI = path.join(__dirname, '..', 'apps/cli/bin/sitemaps.js');
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

describe('sitemap.stale', () => {
  let platform: Platform;
  let db: Pool;
  let api: ApiClient;
  let tenantKey: string;
  let siteId: string;
  let webhookId: string;
  const events: { id: string; type: string; data: Record<string, unknown> }[] = [];
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200).end('ok');
    });
  });

  /** Moves published files' last change back in time in one statement, as if they had been published then. */
  const changedAt = (files: string[], at: Date) =>
    db.query(
      `UPDATE manifests SET files = files || (
         SELECT jsonb_object_agg(path, files -> path || jsonb_build_object('modifiedAt', $3::text))
           FROM unnest($2::text[]) AS path)
        WHERE site_id = $1`,
      [siteId, files, at.toISOString()],
    );
  const verifiedRead = (file: string, at: Date) =>
    db.query(
      `INSERT INTO crawl_reads (site_id, path, crawler, first_at, last_at) VALUES ($1, $2, 'googlebot', $3, $3)
       ON CONFLICT (site_id, path, crawler) DO UPDATE SET first_at = $3, last_at = $3`,
      [siteId, file, at],
    );
  const staleEvents = () => events.filter((event) => event.type === 'sitemap.stale');

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    platform = await startPlatform({
      CRAWL_STALE_EVERY_MS: '200',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      BUILD_QUIET_MS: '600000',
      BUILD_MAX_WAIT_MS: '600000',
    });
    db = new Pool({ connectionString: platform.db.url, max: 2 });
    ({ apiKey: tenantKey, api, siteId } = await createTenantWithSite(platform.apiUrl, 'Stale', { hostname: HOST }));
    const hook = await api.post('/v1/webhooks', {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      eventTypes: ['sitemap.stale'],
    });
    expect(hook.status).toBe(201);
    webhookId = hook.body.id;
    const entries = ['blog', 'news-archive', 'products'].flatMap((section) =>
      [1, 2].map((n) => ({ loc: `https://${HOST}/${section}/${n}`, section })),
    );
    expect((await api.put(`/v1/sites/${siteId}/urls`, entries)).body.errors).toEqual([]);
    const { body } = await api.post(`/v1/sites/${siteId}/builds`, {});
    expect(await api.waitForBuild(siteId, body.buildId)).toMatchObject({ status: 'published' });
  });
  afterAll(async () => {
    await db?.end();
    await platform?.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('sets staleAfterDays through REST, GraphQL and the CLI, refusing what is out of range', async () => {
    expect((await api.get(`/v1/sites/${siteId}`)).body.staleAfterDays).toBeNull();
    for (const staleAfterDays of [0, 366, 2.5]) {
      const refused = await api.patch(`/v1/sites/${siteId}`, { staleAfterDays });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body.error.details)).toContain('staleAfterDays');
    }
    const graphql = await api.post('/graphql', {
      query: 'mutation($id: ID!) { updateSite(input: { id: $id, staleAfterDays: 30 }) { site { staleAfterDays } } }',
      variables: { id: siteId },
    });
    expect(graphql.body.data.updateSite.site).toEqual({ staleAfterDays: 30 });
    const cli = await new Promise<{ out: string; code: number | null }>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'sites', 'stale-after', HOST, '7'], {
        env: childProcessEnv({ SITEMAPS_API_URL: platform.apiUrl, SITEMAPS_API_KEY: tenantKey }),
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ out, code }));
    });
    expect(cli).toEqual({ out: `${HOST}: sitemap.stale after 7 days unread\n`, code: 0 });
    expect((await api.get(`/v1/sites/${siteId}`)).body.staleAfterDays).toBe(7);
  });

  it('sends sitemap.stale once per unread shard version, not for a shard read since it changed', async () => {
    const files = (await api.get(`/v1/sites/${siteId}/crawls`)).body.files as { path: string; kind: string }[];
    const [blog, archive, products] = files.filter((file) => file.kind === 'shard').map((file) => file.path);
    expect([blog, archive, products]).toEqual([
      'sitemap-blog-1.xml.gz',
      'sitemap-news-archive-1.xml.gz',
      'sitemap-products-1.xml.gz',
    ]);
    const tenDaysAgo = daysAgo(10);
    const elevenDaysAgo = daysAgo(11);
    // Blog read by a verified Googlebot since it changed; archive only before. The reads land
    // first, while every shard is fresh, so no sweep sees the shards old but not yet read.
    await verifiedRead(blog!, daysAgo(1));
    await verifiedRead(archive!, elevenDaysAgo);
    await changedAt([blog!, archive!, products!], tenDaysAgo);

    await waitUntil('sitemap.stale for the two unread shards', () => staleEvents().length >= 2, {
      timeoutMs: 20_000,
    });
    expect(staleEvents().map((event) => event.data)).toEqual([
      {
        siteId,
        path: archive,
        modifiedAt: tenDaysAgo.toISOString(),
        lastReadAt: elevenDaysAgo.toISOString(),
        staleAfterDays: 7,
      },
      { siteId, path: products, modifiedAt: tenDaysAgo.toISOString(), lastReadAt: null, staleAfterDays: 7 },
    ]);

    // A later version of the archive shard, unread too: announced again. Its arrival also shows
    // that sweeps ran after the first events, and sent none of them twice.
    const eightDaysAgo = daysAgo(8);
    await changedAt([archive!], eightDaysAgo);
    await waitUntil('sitemap.stale for the new version', () => staleEvents().length >= 3, { timeoutMs: 20_000 });
    expect(staleEvents()[2]!.data).toMatchObject({ path: archive, modifiedAt: eightDaysAgo.toISOString() });
    const ids = staleEvents().map((event) => event.id);
    expect(new Set(ids).size).toBe(3);
    const { rows } = await db.query<{ path: string; modifiedAt: Date }>(
      'SELECT path, modified_at AS "modifiedAt" FROM stale_shard_notices WHERE site_id = $1 ORDER BY path',
      [siteId],
    );
    expect(rows).toEqual([
      { path: archive, modifiedAt: eightDaysAgo },
      { path: products, modifiedAt: tenDaysAgo },
    ]);
    expect((await api.get(`/v1/webhooks/${webhookId}/deliveries`)).body.items).toHaveLength(3);
    expect((await api.patch(`/v1/sites/${siteId}`, { staleAfterDays: null })).body.staleAfterDays).toBeNull();
  });
});
