import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgPool,
  createPrismaClient,
  isDatabaseUnavailable,
  ManifestRepository,
  type PrismaClient,
} from '@sitemaps/data';
import type { Pool } from 'pg';
import {
  createSite,
  createTestDatabase,
  startTcpProxy,
  storeFile,
  switchManifest,
  testRedisUrl,
  waitUntil,
  type TestDatabase,
} from '@sitemaps/testing';
import { createBlobStore, type BlobStore } from '@sitemaps/storage';
import { ManifestReader, manifestChannel, publishManifestChanged, type StaleChange } from './manifest.reader';

// A channel of this test's own: other test files publish on theirs.
const CHANNEL = manifestChannel(`reader-${process.pid}-${Date.now()}`);

describe('ManifestReader', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let pool: Pool;
  let dir: string;
  let store: BlobStore;
  let publisher: Redis;
  let subscriber: Redis;
  let reader: ManifestReader;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.url);
    dir = await mkdtemp(path.join(tmpdir(), 'reader-'));
    pool = createPgPool(db.url);
    store = createBlobStore({ driver: 'fs', dir, graceMs: 0 }, prisma, pool);
    publisher = new Redis(testRedisUrl());
    subscriber = new Redis(testRedisUrl());
    reader = new ManifestReader(new ManifestRepository(prisma), store);
    await reader.listen(subscriber, CHANNEL);
  });
  afterAll(async () => {
    subscriber?.disconnect();
    publisher?.disconnect();
    await prisma?.$disconnect();
    await pool?.end();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Publishes and resolves once the reader's subscriber has handled the message (its listener runs first). */
  async function announce(siteId: string): Promise<void> {
    const handled = new Promise<void>((resolve) => {
      const onMessage = (channel: string, message: string) => {
        if (channel !== CHANNEL || message !== siteId) return;
        subscriber.off('message', onMessage);
        resolve();
      };
      subscriber.on('message', onMessage);
    });
    await publishManifestChanged({ redis: publisher, channel: CHANNEL }, siteId);
    await handled;
  }

  it('loads a site with no manifest yet, and null for an unknown hostname', async () => {
    const site = await createSite(prisma, { scheme: 'http' });
    expect(await reader.load(site.hostname)).toEqual({
      site: {
        id: site.id,
        hostname: site.hostname,
        scheme: 'http',
        settings: {
          robotsTxt: null,
          cacheMaxAge: 300,
          indexNowKey: site.indexNowKey,
          textSitemap: false,
          xslStylesheet: false,
        },
      },
      manifest: null,
    });
    expect(await reader.load('nobody.example.com')).toBeNull();
  });

  it('loads the manifest with each file stamped by when its bytes were stored, and reads both variants', async () => {
    const site = await createSite(prisma);
    const shard = await storeFile(store, site.id, '<urlset/>');
    const version = await switchManifest(prisma, site.id, { 'sitemap-1.xml.gz': shard });
    const snapshot = await reader.load(site.hostname);
    const stored = await prisma.blob.findUniqueOrThrow({
      where: { siteId_sha256: { siteId: site.id, sha256: shard.sha256 } },
    });
    expect(snapshot?.manifest?.version).toBe(version);
    expect(snapshot?.manifest?.files.get('sitemap-1.xml.gz')).toEqual({
      ...shard,
      storedAt: stored.createdAt,
    });
    expect(snapshot?.manifest?.files.get('constructor')).toBeUndefined();
    expect((await reader.read(site.id, shard, 'identity')).toString()).toBe('<urlset/>');
    expect((await reader.read(site.id, shard, 'gzip')).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('serves from memory until a publish is announced, then reloads at once', async () => {
    const site = await createSite(prisma);
    const v1 = await storeFile(store, site.id, '<v1/>', 'index');
    await switchManifest(prisma, site.id, { 'sitemap.xml': v1 });
    const cached = await reader.load(site.hostname);

    // A change nobody announced is not seen: proof the cached path does not query Postgres.
    const v2 = await storeFile(store, site.id, '<v2/>', 'index');
    const version = await switchManifest(prisma, site.id, { 'sitemap.xml': v2 });
    expect(await reader.load(site.hostname)).toBe(cached);

    await announce(site.id);
    const fresh = await reader.load(site.hostname);
    expect(fresh?.manifest?.version).toBe(version);
    expect(fresh?.manifest?.files.get('sitemap.xml')?.sha256).toBe(v2.sha256);
  });

  it('peeks at what is loaded without waiting, and at nothing being loaded, expired or invalidated', async () => {
    const site = await createSite(prisma);
    const shard = await storeFile(store, site.id, '<urlset/>');
    await switchManifest(prisma, site.id, { 'sitemap-1.xml.gz': shard });
    const loading = reader.load(site.hostname);
    expect(reader.peek(site.hostname)).toBeUndefined();
    const snapshot = await loading;
    expect(reader.peek(site.hostname)).toBe(snapshot);
    expect(reader.peekBytes(site.id, shard, 'gzip')).toBeUndefined();
    const bytes = await reader.read(site.id, shard, 'gzip');
    expect(reader.peekBytes(site.id, shard, 'gzip')).toBe(bytes);

    const unknown = 'peeked-at.example.com';
    expect(reader.peek(unknown)).toBeUndefined();
    await reader.load(unknown);
    expect(reader.peek(unknown)).toBeNull();
    reader.invalidate(site.id);
    expect([reader.peek(site.hostname), reader.peek(unknown)]).toEqual([undefined, undefined]);
    const shortLived = new ManifestReader(new ManifestRepository(prisma), store, { maxAgeMs: 0 });
    await shortLived.load(site.hostname);
    expect(shortLived.peek(site.hostname)).toBeUndefined();
  });

  it('finds a new site after its first publish even if its hostname was asked for before', async () => {
    const hostname = 'early.example.com';
    expect(await reader.load(hostname)).toBeNull();
    const site = await createSite(prisma, { hostname });
    await announce(site.id);
    expect((await reader.load(hostname))?.site.id).toBe(site.id);
  });

  it('shares one load between concurrent requests and drops a load that raced an announcement', async () => {
    const site = await createSite(prisma);
    const [a, b] = [reader.load(site.hostname), reader.load(site.hostname)];
    expect(a).toBe(b);
    reader.invalidate(site.id);
    await a;
    expect(reader.load(site.hostname)).not.toBe(a);
  });

  it('expires cached sites after maxAgeMs, the net for announcements lost while Redis was away', async () => {
    const shortLived = new ManifestReader(new ManifestRepository(prisma), store, { maxAgeMs: 0 });
    const site = await createSite(prisma);
    const first = await shortLived.load(site.hostname);
    expect(await shortLived.load(site.hostname)).not.toBe(first);
  });

  it('serves the last snapshot while Postgres is unreachable (stale-if-error), and the new one once it is back', async () => {
    // Postgres through a proxy that the test points at a closed port: connections refused, as when it is down.
    const dbPort = Number(new URL(db.url).port || 5432);
    const proxy = await startTcpProxy(dbPort);
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const url = new URL(db.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const viaProxy = createPrismaClient(url.toString());
    const changes: StaleChange[] = [];
    const options = { maxAgeMs: 0, staleRetryMs: 0, onStaleChange: (change: StaleChange) => changes.push(change) };
    const stale = new ManifestReader(new ManifestRepository(viaProxy), store, options);
    const off = new ManifestReader(new ManifestRepository(viaProxy), store, { ...options, staleIfErrorMs: 0 });
    try {
      const site = await createSite(prisma);
      await switchManifest(prisma, site.id, { 'sitemap.xml': await storeFile(store, site.id, '<v1/>', 'index') });
      const before = await stale.load(site.hostname);
      await off.load(site.hostname);
      expect(stale.staleSites).toBe(0);

      proxy.retarget(closedPort);
      // Past its age (0 here): the same snapshot, counted; an announcement keeps it as the fallback too.
      expect(await stale.load(site.hostname)).toBe(before);
      stale.invalidate(site.id);
      expect(await stale.load(site.hostname)).toBe(before);
      expect(stale.staleSites).toBe(1);
      stale.countStaleAnswer(before);
      expect(stale.staleAnswers).toBe(1);
      expect(changes).toMatchObject([{ serving: true, hostname: site.hostname, version: before?.manifest?.version }]);
      // Never read, or staleIfErrorMs 0: the failure, as before.
      await expect(stale.load('never-read.example.com')).rejects.toSatisfy(isDatabaseUnavailable);
      await expect(off.load(site.hostname)).rejects.toSatisfy(isDatabaseUnavailable);

      const version = await switchManifest(prisma, site.id, {
        'sitemap.xml': await storeFile(store, site.id, '<v2/>', 'index'),
      });
      proxy.retarget(dbPort);
      // A stale site's request is answered at once while Postgres is tried behind it.
      await waitUntil(
        'the new manifest once Postgres answers',
        async () => (await stale.load(site.hostname))?.manifest?.version === version,
      );
      expect(stale.staleSites).toBe(0);
      expect(changes).toMatchObject([{ serving: true }, { serving: false, answers: 1 }]);
    } finally {
      await viaProxy.$disconnect();
      await proxy.stop();
    }
  });
});
