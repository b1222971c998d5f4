import { gunzipSync } from 'node:zlib';
import type { INestApplicationContext } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentSiteVerification, parseConfig, type AppConfig } from '@sitemaps/config';
import {
  createPrismaClient,
  manifestFilesSchema,
  renderSlicesSchema,
  ShardRepository,
  type PrismaClient,
  type RenderSlices,
} from '@sitemaps/data';
import { SLICE_URLS } from '@sitemaps/domain';
import { UrlIngestService } from '@sitemaps/ingest';
import { BuildProducer } from '@sitemaps/jobs';
import { gzipUrlsetStream, validateSitemapFile } from '@sitemaps/sitemap-xml';
import { createBlobStore, type BlobStore } from '@sitemaps/storage';
import { insertSite, testRedisUrl, uniqueQueuePrefix, useTestPool, waitUntil } from '@sitemaps/testing';
import { createWorkerApp } from '../worker.app';

type Site = Awaited<ReturnType<typeof insertSite>>;

/** A shard of four slices: 3 × SLICE_URLS + a quarter more URLs. */
const URLS = 3 * SLICE_URLS + SLICE_URLS / 4;

describe('a change re-renders only the slices it touched (real worker, Postgres, Redis, storage)', () => {
  const fixture = useTestPool();
  let pool: Pool;
  let config: AppConfig;
  let worker: INestApplicationContext;
  let prisma: PrismaClient;
  let redis: Redis;
  let producer: BuildProducer;
  let store: BlobStore;
  let ingest: UrlIngestService;
  let site: Site;
  let shardId: string;
  /** The shard's last render (the tests run in order, each from where the last left the shard). */
  let latest: { slices: RenderSlices; file: Buffer } | undefined;

  const loc = (i: number) => `https://${site.hostname}/catalogue/${i}`;
  const entry = (i: number, priority = 0.5) => ({ loc: loc(i), priority, changefreq: 'weekly' });

  beforeAll(async () => {
    pool = fixture.pool;
    config = parseConfig({
      DATABASE_URL: fixture.db.url,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: uniqueQueuePrefix('slices'),
      ADMIN_API_KEY: 'test-admin-key-0123456789',
      LOG_LEVEL: 'warn',
      BUILD_QUIET_MS: '0',
      BUILD_MAX_WAIT_MS: '0',
      INDEXNOW_ENDPOINTS: 'off',
      WORKER_HTTP_PORT: '0',
      SITE_VERIFICATION: developmentSiteVerification(),
    });
    worker = await createWorkerApp(config);
    prisma = createPrismaClient(fixture.db.url, { poolSize: 2 });
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
    producer = new BuildProducer(BuildProducer.queue(redis, config.queuePrefix), redis, {
      quietMs: 0,
      maxWaitMs: 0,
    });
    store = createBlobStore(config.storage, prisma, pool);
    ingest = new UrlIngestService(pool, async () => undefined);
    site = await insertSite(pool);
    for (let start = 0; start < URLS; start += 5_000) {
      const batch = Array.from({ length: Math.min(5_000, URLS - start) }, (_, k) => entry(start + k));
      expect((await ingest.upsert(site, batch)).errors).toEqual([]);
    }
    shardId = (await pool.query<{ id: string }>('SELECT id::text FROM shards WHERE site_id = $1', [site.id])).rows[0]!
      .id;
  }, 300_000);
  afterAll(async () => {
    await worker?.close();
    await producer?.close();
    redis?.disconnect();
    await prisma?.$disconnect();
  });

  /** Queues a change build, as a PUT does, and waits for it to publish; returns its shard's render. */
  async function build(): Promise<{ slices: RenderSlices; file: Buffer }> {
    const before = await prisma.build.count({ where: { siteId: site.id } });
    await producer.afterChange(site.id);
    const published = await waitUntil('the change build to publish', async (seen) => {
      const latest = seen(await prisma.build.findMany({ where: { siteId: site.id }, orderBy: { createdAt: 'asc' } }));
      const last = latest.length > before ? latest.at(-1) : undefined;
      if (last?.status === 'failed') throw new Error(`build failed: ${last.error}`);
      return last?.status === 'published' ? last : undefined;
    });
    const render = await prisma.shardRender.findUniqueOrThrow({
      where: { buildId_shardId: { buildId: published.id, shardId: BigInt(shardId) } },
    });
    const slices = renderSlicesSchema.parse(render.slices);
    const manifest = await prisma.manifest.findUniqueOrThrow({ where: { siteId: site.id } });
    const served = Object.values(manifestFilesSchema.parse(manifest.files)).find((file) => file.kind === 'shard');
    expect(served?.sha256).toBe(slices.sha256);
    const file = await store.get(site.id, slices.sha256);
    if (!file) throw new Error('the published file is not stored');
    latest = { slices, file };
    return latest;
  }

  /** The shard as a whole render makes it, in one stream (not sliced): what every splice must equal. */
  async function fullRender(): Promise<Buffer> {
    const shards = new ShardRepository(prisma, pool);
    const gzip = await shards.snapshot(shardId, async (snapshot) => {
      const head = (await snapshot.head())!;
      const meta = { urls: head.urls, bytes: Number(head.bytes), mask: head.mask };
      return (await gzipUrlsetStream(snapshot.streamFragments(), meta)).gzip;
    });
    return gunzipSync(gzip);
  }

  const sliceBytes = (file: Buffer, slices: RenderSlices, index: number) => {
    const slice = slices.slices[index]!;
    return file.subarray(slice.offset, slice.offset + slice.size);
  };

  /** The new file equals a full render, validates, and copied every slice but `changed` from the old one. */
  async function expectSpliced(
    before: { slices: RenderSlices; file: Buffer },
    after: { slices: RenderSlices; file: Buffer },
    changed: number[],
  ) {
    const xml = gunzipSync(after.file);
    expect(xml.equals(await fullRender())).toBe(true);
    expect(after.slices.rendered).toEqual(changed);
    expect(after.slices.bounds).toEqual(before.slices.bounds);
    for (const index of before.slices.slices.keys()) {
      const same = sliceBytes(after.file, after.slices, index).equals(sliceBytes(before.file, before.slices, index));
      expect([index, same]).toEqual([index, !changed.includes(index)]);
    }
    return xml;
  }

  /** The slice that holds URL i (ids follow the order of ingest here). */
  async function sliceOf(i: number, slices: RenderSlices): Promise<number> {
    const { rows } = await pool.query<{ id: string }>('SELECT id::text FROM urls WHERE site_id = $1 AND loc = $2', [
      site.id,
      loc(i),
    ]);
    const id = BigInt(rows[0]!.id);
    return slices.bounds.filter((bound) => BigInt(bound) <= id).length;
  }

  it('renders a whole shard as slices, then splices a change in the first, a middle and the last slice', async () => {
    const first = await build();
    expect(first.slices.slices).toHaveLength(4);
    expect(first.slices.rendered).toEqual([0, 1, 2, 3]);
    expect(gunzipSync(first.file).equals(await fullRender())).toBe(true);

    let previous = first;
    for (const i of [3, Math.floor(URLS / 2), URLS - 2]) {
      const index = await sliceOf(i, previous.slices);
      await ingest.upsert(site, [entry(i, 0.9)]);
      const next = await build();
      const xml = await expectSpliced(previous, next, [index]);
      expect(xml.toString()).toContain(`<loc>${loc(i)}</loc><lastmod>`);
      expect(xml.toString()).toMatch(
        new RegExp(`<loc>${loc(i).replace(/[.?]/g, '\\$&')}</loc>.*?<priority>0.9</priority>`),
      );
      previous = next;
    }
    expect((await validateSitemapFile('shard.xml', gunzipSync(previous.file))).problems).toEqual([]);
    // The file's lastmod (the index's) is that of the URL changed last, in the last slice.
    const { rows } = await pool.query<{ lastmod: string }>(`SELECT lastmod FROM urls WHERE site_id = $1 AND loc = $2`, [
      site.id,
      loc(URLS - 2),
    ]);
    expect(rows[0]?.lastmod).toBeTruthy();
    const manifest = await prisma.manifest.findUniqueOrThrow({ where: { siteId: site.id } });
    const served = Object.values(manifestFilesSchema.parse(manifest.files)).find((file) => file.kind === 'shard');
    expect(served?.lastmod).toBe(rows[0]?.lastmod);
  }, 240_000);

  it('splices an added URL into the last slice and a removed one out of its slice, bounds unchanged', async () => {
    const before = latest ?? (await build());
    await ingest.upsert(site, [entry(URLS + 1)]);
    const added = await build();
    await expectSpliced(before, added, [3]);
    expect(gunzipSync(added.file).toString()).toContain(`<loc>${loc(URLS + 1)}</loc>`);

    const index = await sliceOf(SLICE_URLS + 10, added.slices);
    await ingest.delete(site, [loc(SLICE_URLS + 10)]);
    const removed = await build();
    const xml = await expectSpliced(added, removed, [index]);
    expect(xml.toString()).not.toContain(`<loc>${loc(SLICE_URLS + 10)}</loc>`);
    expect((await validateSitemapFile('shard.xml', xml)).problems).toEqual([]);
  }, 240_000);

  it('renders the shard whole, cut afresh, when most slices changed', async () => {
    const before = latest ?? (await build());
    await ingest.upsert(site, [entry(1, 0.1), entry(SLICE_URLS + 1, 0.1), entry(2 * SLICE_URLS + 1, 0.1)]);
    const after = await build();
    expect(after.slices.rendered).toEqual([0, 1, 2, 3]);
    expect(gunzipSync(after.file).equals(await fullRender())).toBe(true);
    expect(after.slices.slices).toHaveLength(before.slices.slices.length);
  }, 240_000);
});
