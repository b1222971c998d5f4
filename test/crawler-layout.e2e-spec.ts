// What a crawler reads, followed the way a crawler follows it: robots.txt, the index it names,
// every file the index lists. Each file lists only URLs under its own directory (the protocol's
// rule), the index dates each file by when its bytes last changed, a site published in the old
// `sitemaps/` folder moves without a crawler ever meeting a 404, and a cross-submitted index
// lists files a crawler can fetch where they are listed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacyShardFilePath } from '@sitemaps/domain';
import { manifestChannel, publishManifestChanged } from '@sitemaps/serving';
import { parseConfig } from '@sitemaps/config';
import { rawRequest, testRedisUrl, waitUntil, type RawResponse } from '@sitemaps/testing';
import { createWorkerApp } from '../apps/worker/src/worker.app';
import {
  crawlFromRobots,
  underDirectoryOf,
  validateSitemaps,
  viaPublicServer,
  type CrawledFile,
} from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { createTenantWithSite, type ApiClient } from './support/tenant';

const HOST = 'layout.example.com';
const PLATFORM_HOST = 'sitemaps.platform.example.net';
const url = (path: string) => `https://${HOST}${path}`;

/** Every file validates with the project's validator. */
async function expectValid(files: CrawledFile[]): Promise<void> {
  const result = await validateSitemaps(
    files.filter((file) => file.kind !== 'text').map((file) => ({ name: new URL(file.url).pathname, data: file.body })),
  );
  expect(result.output).toBe('');
}

describe('what crawlers read', () => {
  let platform: Platform;
  let api: ApiClient;
  let db: Client;
  let redis: Redis;
  let siteId: string;
  let get: (url: URL) => Promise<RawResponse>;

  const publish = async (full = false) => {
    const { body } = await api.post(`/v1/sites/${siteId}/builds`, full ? { full: true } : {});
    return api.waitForBuild(siteId, body.buildId);
  };
  const crawl = () => crawlFromRobots(url('/robots.txt'), get);

  beforeAll(async () => {
    // Builds run only when a test asks for one.
    platform = await startPlatform({
      BUILD_QUIET_MS: '600000',
      BUILD_MAX_WAIT_MS: '600000',
      PUBLIC_BASE_URL: `http://${PLATFORM_HOST}`,
    });
    get = viaPublicServer(platform.publicUrl);
    ({ api, siteId } = await createTenantWithSite(platform.apiUrl, 'Layout', { hostname: HOST }));
    db = new Client({ connectionString: platform.db.url });
    await db.connect();
    redis = new Redis(testRedisUrl());
    const entries = ['', 'blog', 'products'].flatMap((section) =>
      [1, 2, 3, 4, 5].map((n) => ({
        loc: url(`/${section || 'page'}/${n}`),
        lastmod: `2026-03-0${n}`,
        ...(section ? { section } : {}),
      })),
    );
    expect((await api.put(`/v1/sites/${siteId}/urls`, entries)).body.errors).toEqual([]);
    expect(await publish()).toMatchObject({ status: 'published' });
  });
  afterAll(async () => {
    redis?.disconnect();
    await db?.end();
    await platform?.close();
  });

  it('reads robots.txt, the index and every file, each listing only URLs under its own directory', async () => {
    const { sitemaps, files } = await crawl();
    expect(sitemaps).toEqual([url('/sitemap.xml')]);
    expect(files.map((file) => [file.url, file.status, file.kind])).toEqual([
      [url('/sitemap.xml'), 200, 'sitemapindex'],
      [url('/sitemap-1.xml.gz'), 200, 'urlset'],
      [url('/sitemap-blog-1.xml.gz'), 200, 'urlset'],
      [url('/sitemap-products-1.xml.gz'), 200, 'urlset'],
    ]);
    for (const file of files) {
      expect(file.locs.length).toBeGreaterThan(0);
      for (const loc of file.locs)
        expect([file.url, loc, underDirectoryOf(file.url, loc)]).toEqual([file.url, loc, true]);
    }
    expect(files.slice(1).flatMap((file) => file.locs)).toHaveLength(15);
    await expectValid(files);
  });

  it("dates a file in the index by its bytes: deleting a shard's newest URL moves its lastmod forward, no other", async () => {
    const before = (await crawl()).files[0] as CrawledFile;
    await api.delete(`/v1/sites/${siteId}/urls`, { locs: [url('/blog/5')] });
    expect(await publish()).toMatchObject({ status: 'published', shardsRendered: 1 });
    const after = (await crawl()).files[0] as CrawledFile;
    expect([...after.lastmods.keys()]).toEqual([...before.lastmods.keys()]);
    expect([...after.lastmods.keys()]).toContain(url('/sitemap-blog-1.xml.gz'));
    for (const [loc, lastmod] of after.lastmods) {
      expect(lastmod, loc).toBeDefined();
      const was = Date.parse(before.lastmods.get(loc) ?? '');
      if (loc === url('/sitemap-blog-1.xml.gz')) expect(Date.parse(lastmod ?? '')).toBeGreaterThan(was);
      else expect([loc, lastmod]).toEqual([loc, before.lastmods.get(loc)]);
    }
  });

  it('moves a site published in the sitemaps/ folder at its next build; old paths answer 301, across rebuilds', async () => {
    // The manifest as the platform published it before files moved to the root.
    const { rows: shards } = await db.query<{ id: string; section: string; ordinal: number }>(
      'SELECT id::text, section, ordinal FROM shards WHERE site_id = $1',
      [siteId],
    );
    const { rows } = await db.query<{
      files: Record<string, unknown>;
      shards: Record<string, { changeSeq: string; paths: string[] }>;
    }>('SELECT files, shards FROM manifests WHERE site_id = $1', [siteId]);
    const manifest = rows[0] as (typeof rows)[0];
    const legacy: string[] = [];
    for (const [id, version] of Object.entries(manifest.shards)) {
      const shard = shards.find((row) => row.id === id);
      if (!shard) throw new Error(`shard ${id} is not stored`);
      version.paths = version.paths.map((path, part) => {
        const old = legacyShardFilePath(shard.section, shard.ordinal, part + 1);
        manifest.files[old] = manifest.files[path];
        delete manifest.files[path];
        legacy.push(old);
        return old;
      });
    }
    expect(legacy.sort()).toEqual([
      'sitemaps/blog-1.xml.gz',
      'sitemaps/products-1.xml.gz',
      'sitemaps/sitemap-1.xml.gz',
    ]);
    await db.query(`UPDATE manifests SET files = $2, shards = $3, redirects = '{}' WHERE site_id = $1`, [
      siteId,
      manifest.files,
      manifest.shards,
    ]);
    await publishManifestChanged({ redis, channel: manifestChannel(platform.config.queuePrefix) }, siteId);
    const served = await rawRequest(platform.publicUrl, '/sitemaps/blog-1.xml.gz', { host: HOST });
    expect(served.status).toBe(200);

    // A worker that boots after the upgrade queues a build for the site, which renders every
    // shard to move them all (this one debounces changes for 100 ms).
    const latestBuild = async () =>
      (
        await db.query<{ id: string; status: string; trigger: string; shards_rendered: number }>(
          'SELECT id::text, status, trigger, shards_rendered FROM builds WHERE site_id = $1 ORDER BY created_at DESC LIMIT 1',
          [siteId],
        )
      ).rows[0];
    const before = await latestBuild();
    const worker = await createWorkerApp(parseConfig({ ...platform.env, BUILD_QUIET_MS: '100' }));
    try {
      const moved = await waitUntil(
        'a build of the legacy site',
        async (seen) => {
          const latest = await latestBuild();
          seen(latest);
          return latest && latest.id !== before?.id && latest.status === 'published' ? latest : undefined;
        },
        { timeoutMs: 60_000 },
      );
      expect(moved).toMatchObject({ trigger: 'change', shards_rendered: 3 });
    } finally {
      await worker.close();
    }
    const expectMoved = async () => {
      for (const old of legacy) {
        for (const path of [old, old.replace(/\.gz$/, '')]) {
          const response = await rawRequest(platform.publicUrl, `/${path}`, { host: HOST });
          const location = response.headers.location ?? '';
          expect([path, response.status]).toEqual([path, 301]);
          expect(location).toBe(url(`/sitemap-${path.slice('sitemaps/'.length).replace(/^sitemap-/, '')}`));
          const file = await get(new URL(location));
          expect(file.status).toBe(200);
          const result = await validateSitemaps([{ name: new URL(location).pathname, data: file.body }]);
          expect(result.output).toBe('');
        }
      }
    };
    await expectMoved();
    const { files } = await crawl();
    expect(files.every((file) => file.status === 200 && !file.url.includes('/sitemaps/'))).toBe(true);

    expect(await publish(true)).toMatchObject({ status: 'published', shardsRendered: 3 });
    await api.put(`/v1/sites/${siteId}/urls`, [{ loc: url('/blog/6'), section: 'blog' }]);
    expect(await publish()).toMatchObject({ status: 'published', shardsRendered: 1 });
    await expectMoved();
  });

  it("follows a cross-submitted index from the site's own robots.txt to files served under /s/<hostname>/", async () => {
    // The site's own server: it serves its robots.txt, naming the platform's index, and nothing else.
    const robotsLine = (await api.get(`/v1/sites/${siteId}`)).body.crossSubmitRobotsLine as string;
    const crossSubmitUrl = `http://${PLATFORM_HOST}/s/${HOST}/sitemap.xml`;
    expect(robotsLine).toBe(`Sitemap: ${crossSubmitUrl}`);
    const own = http.createServer((request, response) => {
      if (request.url === '/robots.txt') response.end(`User-agent: *\nAllow: /\n\n${robotsLine}\n`);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    try {
      const ownUrl = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
      const route = (target: URL) =>
        target.host === HOST
          ? rawRequest(ownUrl, target.pathname, { host: HOST })
          : viaPublicServer(platform.publicUrl)(target);
      const { sitemaps, files } = await crawlFromRobots(url('/robots.txt'), route);
      expect(sitemaps).toEqual([crossSubmitUrl]);
      const [index, ...children] = files as [CrawledFile, ...CrawledFile[]];
      expect([index.status, index.kind]).toEqual([200, 'sitemapindex']);
      expect(children).toHaveLength(3);
      for (const child of children) {
        // Under the index's directory on the platform, where it is served; its URLs on the site,
        // which the site's robots.txt authorizes by naming the index.
        expect([child.url, underDirectoryOf(index.url, child.url), child.status]).toEqual([child.url, true, 200]);
        expect(child.locs.length).toBeGreaterThan(0);
        for (const loc of child.locs) expect(new URL(loc).host).toBe(HOST);
      }
      await expectValid(files);
    } finally {
      await new Promise((resolve) => own.close(resolve));
    }
  });
});
