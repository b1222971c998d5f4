// One suite, every driver: they must be interchangeable behind BlobStore. The s3 driver runs against
// s3rver, a local S3-compatible server the suite starts on 127.0.0.1.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgPool, createPrismaClient, type PrismaClient } from '@sitemaps/data';
import type { Pool } from 'pg';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import {
  createSite,
  createTestDatabase,
  startS3Server,
  storeFile,
  switchManifest,
  type S3TestServer,
  type TestDatabase,
} from '@sitemaps/testing';
import { BlobKeyError, blobKey, type BlobStore } from './blob.store';
import { createBlobStore } from './blob-store.factory';
import { ORPHAN_AFTER_MS } from './blob.repository';
import { connectS3 } from './s3-blob.store';

describe.each(['postgres', 'fs', 's3'] as const)('%s blob store', (driver) => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let pool: Pool;
  let dir: string;
  let store: BlobStore;
  let s3: S3TestServer | undefined;
  const prefix = 'platform/blobs/';

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.url);
    dir = await mkdtemp(path.join(tmpdir(), 'blobs-'));
    pool = createPgPool(db.url);
    if (driver === 's3') s3 = await startS3Server();
    store = createBlobStore({ driver, dir, graceMs: 600_000, s3: s3?.config(prefix) }, prisma, pool);
  });
  afterAll(async () => {
    await s3?.stop();
    await prisma?.$disconnect();
    await pool?.end();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const releaseAgo = (siteId: string, sha256: string, seconds: number) =>
    prisma.$executeRaw`UPDATE blobs SET released_at = now() - ${seconds}::float8 * interval '1 second' WHERE site_id = ${siteId}::uuid AND sha256 = ${sha256}`;

  it('returns the bytes it stored, under their sha256', async () => {
    const site = await createSite(prisma);
    const bytes = Buffer.from([0x1f, 0x8b, 1, 2, 3, 250]);
    const key = await store.put(site.id, bytes, 42);
    expect(key).toBe(blobKey(bytes));
    expect(await store.get(site.id, key)).toEqual(bytes);
    const row = await prisma.blob.findUniqueOrThrow({ where: { siteId_sha256: { siteId: site.id, sha256: key } } });
    expect({ gzipSize: row.gzipSize, byteSize: row.byteSize, hasBody: row.body !== null }).toEqual({
      gzipSize: bytes.length,
      byteSize: 42,
      hasBody: driver === 'postgres',
    });
  });

  it('puts idempotently, and a second put of released bytes makes them live again', async () => {
    const site = await createSite(prisma);
    const bytes = Buffer.from('same bytes');
    const first = await store.put(site.id, bytes, 10);
    await releaseAgo(site.id, first, 3600);
    const second = await store.put(site.id, bytes, 10);
    expect(second).toBe(first);
    const rows = await prisma.blob.findMany({ where: { siteId: site.id } });
    expect(rows.map((row) => row.releasedAt)).toEqual([null]);
    expect(await store.collectGarbage(0)).toBe(0);
    expect(await store.get(site.id, first)).toEqual(bytes);
  });

  it('answers null for a key it never stored', async () => {
    const site = await createSite(prisma);
    expect(await store.get(site.id, 'a'.repeat(64))).toBeNull();
  });

  it('refuses keys that are not a lowercase sha256 and site ids that are not uuids', async () => {
    const site = await createSite(prisma);
    for (const key of ['../../etc/passwd', 'A'.repeat(64), `${'a'.repeat(63)}/`, '']) {
      await expect(store.get(site.id, key)).rejects.toBeInstanceOf(BlobKeyError);
    }
    await expect(store.get('../x', 'a'.repeat(64))).rejects.toBeInstanceOf(BlobKeyError);
    await expect(store.put('../x', Buffer.from('x'), 1)).rejects.toBeInstanceOf(BlobKeyError);
  });

  it('collects only blobs released longer than the grace period ago, never one the manifest lists', async () => {
    const site = await createSite(prisma);
    const live = await storeFile(store, site.id, '<live/>');
    const old = await storeFile(store, site.id, '<old/>');
    const recent = await storeFile(store, site.id, '<recent/>');
    const listed = await storeFile(store, site.id, '<listed/>');
    await switchManifest(prisma, site.id, { 'sitemap.xml': live, 'sitemaps/listed.xml.gz': listed });
    await releaseAgo(site.id, old.sha256, 3600);
    await releaseAgo(site.id, recent.sha256, 1);
    await releaseAgo(site.id, listed.sha256, 3600); // a stale flag must not cost a served file

    expect(await store.collectGarbage(600_000)).toBe(1);
    expect(await store.get(site.id, old.sha256)).toBeNull();
    for (const kept of [live, recent, listed]) expect(await store.get(site.id, kept.sha256)).not.toBeNull();
    const rows = await prisma.blob.findMany({ where: { siteId: site.id }, select: { sha256: true } });
    expect(rows.map((row) => row.sha256).sort()).toEqual([live, recent, listed].map((file) => file.sha256).sort());
    expect(await store.collectGarbage(600_000)).toBe(0);
  });

  it('collects a blob no publish released once it is old and its site builds nothing, never a listed one', async () => {
    const site = await createSite(prisma);
    const listed = await storeFile(store, site.id, '<listed/>');
    const orphan = await storeFile(store, site.id, '<orphan/>');
    const young = await storeFile(store, site.id, '<young/>');
    await switchManifest(prisma, site.id, { 'sitemap.xml': listed });
    const age = async (sha256: string, ms: number) =>
      prisma.$executeRaw`UPDATE blobs SET created_at = now() - ${ms}::float8 * interval '1 millisecond' WHERE site_id = ${site.id}::uuid AND sha256 = ${sha256}`;
    for (const file of [listed, orphan]) await age(file.sha256, ORPHAN_AFTER_MS + 60_000);
    await age(young.sha256, ORPHAN_AFTER_MS - 60_000);

    // A build in flight may still list what it rendered: nothing unreleased of its site is taken.
    const build = await prisma.build.create({ data: { siteId: site.id, status: 'running' } });
    expect(await store.collectGarbage(600_000)).toBe(0);
    await prisma.build.update({ where: { id: build.id }, data: { status: 'failed' } });

    expect(await store.collectGarbage(600_000)).toBe(1);
    expect(await store.get(site.id, orphan.sha256)).toBeNull();
    for (const kept of [listed, young]) expect(await store.get(site.id, kept.sha256)).not.toBeNull();
  });

  it('never loses bytes that are put again while GC collects them', async () => {
    const site = await createSite(prisma);
    for (let round = 0; round < 10; round++) {
      const bytes = Buffer.from(`contested ${round}`);
      const key = await store.put(site.id, bytes, bytes.length);
      await releaseAgo(site.id, key, 3600);
      await Promise.all([store.collectGarbage(0), store.put(site.id, bytes, bytes.length)]);
      expect(await store.get(site.id, key)).toEqual(bytes);
      expect(await prisma.blob.count({ where: { siteId: site.id, sha256: key, releasedAt: null } })).toBe(1);
    }
  });

  it('writes whole files named by their key under its root (fs: directory, s3: bucket and prefix), or nothing there (postgres)', async () => {
    const site = await createSite(prisma);
    const files = await Promise.all(['a', 'b', 'a'].map((text) => storeFile(store, site.id, text)));
    const expected =
      driver === 'postgres'
        ? []
        : [...new Set(files.map((file) => `${site.id}/${file.sha256.slice(0, 2)}/${file.sha256}.gz`))].sort();
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    const onDisk = entries
      .filter((entry) => entry.isFile() && entry.parentPath.includes(site.id))
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
      .sort();
    expect(onDisk).toEqual(driver === 'fs' ? expected : []);
    if (!s3) return;
    const settings = s3.config(prefix);
    const { client } = await connectS3(settings);
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: `${prefix}${site.id}/` }),
    );
    expect((listed.Contents ?? []).map((object) => object.Key).sort()).toEqual(expected.map((key) => prefix + key));
    const bytes = await store.get(site.id, files[0]!.sha256);
    expect(bytes?.length).toBe(files[0]!.gzipSize);
  });

  it('removes a deleted site’s files, idempotently, and none while the site exists or of other sites', async () => {
    const [doomed, kept] = [await createSite(prisma), await createSite(prisma)];
    const files = await Promise.all(['x', 'y', 'z'].map((text) => storeFile(store, doomed.id, text)));
    const other = await storeFile(store, kept.id, 'x');
    expect(await store.removeSite(doomed.id)).toBeNull();
    expect(await store.get(doomed.id, files[0]!.sha256)).not.toBeNull();

    await prisma.tenant.delete({ where: { id: doomed.tenantId } });
    const outside = driver === 'postgres' ? 0 : files.length;
    expect(await store.removeSite(doomed.id)).toBe(outside);
    expect(await store.removeSite(doomed.id)).toBe(0);
    for (const file of files) expect(await store.get(doomed.id, file.sha256)).toBeNull();
    expect(await store.get(kept.id, other.sha256)).not.toBeNull();
    if (driver === 'fs') expect(await readdir(dir)).not.toContain(doomed.id);
    if (!s3) return;
    const settings = s3.config(prefix);
    const { client } = await connectS3(settings);
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: `${prefix}${doomed.id}/` }),
    );
    expect(listed.Contents ?? []).toEqual([]);
  });
});
