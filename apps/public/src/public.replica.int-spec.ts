// The public server reading a streaming replica (DATABASE_READ_URL) that the test makes: a
// primary and a replica of it (initdb + pg_basebackup, spare ports, a temp dir). With replay
// paused, a publish on the primary is announced with its LSN; a crawler keeps getting the
// previous, complete set — never an index whose files it cannot fetch — and the new set
// appears once replay resumes.
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@sitemaps/config';
import { createPrismaClient, type PrismaClient } from '@sitemaps/data';
import { validateSitemapFile } from '@sitemaps/sitemap-xml';
import { createBlobStore, type BlobStore } from '@sitemaps/storage';
import { announceManifestChange, ManifestReader, manifestChannel, type ManifestAnnouncements } from '@sitemaps/serving';
import {
  rawRequest,
  startPostgresReplicaPair,
  testRedisUrl,
  uniqueQueuePrefix,
  waitUntil,
  type PostgresReplicaPair,
} from '@sitemaps/testing';
import { createPublicApp } from './public.app';
import { publishSite, sitemapIndexXml, storeXml, switchManifest, urlsetXml } from './testing/public.factory';

describe('public server on a read replica', () => {
  let pair: PostgresReplicaPair;
  let prisma: PrismaClient;
  let pool: Pool;
  let store: BlobStore;
  let redis: Redis;
  let announcements: ManifestAnnouncements;
  let app: NestFastifyApplication;
  let origin: string;
  const host = 'replica.example.com';

  beforeAll(async () => {
    pair = await startPostgresReplicaPair();
    const config = parseConfig({
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URL: pair.replicaUrl,
      REDIS_URL: testRedisUrl(),
      // Announcements on a channel of this test's own: another test's would wait for replay here too.
      QUEUE_PREFIX: uniqueQueuePrefix('replica'),
      LOG_LEVEL: 'silent',
    });
    prisma = createPrismaClient(pair.primaryUrl);
    pool = new Pool({ connectionString: pair.primaryUrl });
    store = createBlobStore(config.storage, prisma, pool);
    redis = new Redis(config.redisUrl);
    announcements = { redis, channel: manifestChannel(config.queuePrefix) };
    app = await createPublicApp(config);
    await app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    redis?.disconnect();
    await prisma?.$disconnect();
    await pool?.end();
    await pair?.stop();
  });

  /** What a crawler sees: the index and every file it lists, each validated; throws on any file it cannot fetch. */
  async function crawl(): Promise<{ shards: string[]; locs: string[] }> {
    const index = await rawRequest(origin, '/sitemap.xml', { host });
    expect(index.status).toBe(200);
    const shards = [...index.body.toString().matchAll(/<loc>https?:\/\/[^/]+\/([^<]+)<\/loc>/g)].map(
      (match) => match[1] as string,
    );
    const locs: string[] = [];
    for (const shard of shards) {
      const file = await rawRequest(origin, `/${shard}`, { host });
      expect(file.status, shard).toBe(200);
      expect((await validateSitemapFile(shard, file.body)).problems).toEqual([]);
      locs.push(
        ...[
          ...gunzipSync(file.body)
            .toString()
            .matchAll(/<loc>([^<]+)<\/loc>/g),
        ].map((match) => match[1] as string),
      );
    }
    return { shards, locs };
  }

  it('switches to a publish only once the replica has replayed it, serving the previous complete set meanwhile', async () => {
    const { site } = await publishSite(prisma, store, host, ['/v1']);
    await announceManifestChange(announcements, pool, site.id);
    await pair.caughtUp();
    const before = await waitUntil('the first publish to be served', async (seen) => {
      const view = seen(await crawl().catch(() => undefined));
      return view?.locs.includes(`https://${host}/v1`) ? view : undefined;
    });
    expect(before.shards).toEqual(['sitemap-1.xml.gz']);

    await pair.pauseReplay();
    // A new set on the primary: two new shards under new paths, the old shard dropped from the manifest.
    const origin2 = `https://${host}`;
    const a = await storeXml(store, site.id, { xml: urlsetXml(origin2, ['/v2/a']), kind: 'shard', urlCount: 1 });
    const b = await storeXml(store, site.id, { xml: urlsetXml(origin2, ['/v2/b']), kind: 'shard', urlCount: 1 });
    const index = await storeXml(store, site.id, {
      xml: sitemapIndexXml(origin2, ['sitemap-v2-1.xml.gz', 'sitemap-v2-2.xml.gz']),
      kind: 'index',
    });
    await switchManifest(prisma, site.id, {
      'sitemap.xml': index.file,
      'sitemap-v2-1.xml.gz': a.file,
      'sitemap-v2-2.xml.gz': b.file,
    });
    await announceManifestChange(announcements, pool, site.id);
    const reader = app.get(ManifestReader);
    await waitUntil('the announcement to wait for the replica', () => reader.sitesAwaitingReplay === 1);

    // The replica has not replayed the switch: every crawl is the previous set, whole.
    for (let round = 0; round < 20; round++) expect(await crawl()).toEqual(before);
    expect(reader.sitesAwaitingReplay).toBe(1);

    await pair.resumeReplay();
    const after = await waitUntil(
      'the new set to be served',
      async (seen) => {
        // A crawl that straddles the switch may find the old shard's path gone: the next one is whole.
        const view = seen(await crawl().catch(() => undefined));
        return view?.shards.length === 2 ? view : undefined;
        // Well inside the cache's max age (60 s): a reader that had reloaded from the lagging replica
        // at once would still hold the old set here.
      },
      { timeoutMs: 20_000 },
    );
    expect(after).toEqual({
      shards: ['sitemap-v2-1.xml.gz', 'sitemap-v2-2.xml.gz'],
      locs: [`${origin2}/v2/a`, `${origin2}/v2/b`],
    });
    expect(reader.sitesAwaitingReplay).toBe(0);
  }, 120_000);
});
