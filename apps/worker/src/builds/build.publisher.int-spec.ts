import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgPool,
  createPrismaClient,
  createRepositories,
  type ManifestRepository,
  type ManifestSwitch,
  type PrismaClient,
} from '@sitemaps/data';
import type { RenderedFile } from '@sitemaps/domain';
import { createBlobStore, type BlobStore } from '@sitemaps/storage';
import { insertSite, useTestPool } from '@sitemaps/testing';
import { BuildPublisher } from './build.publisher';

const GRACE_MS = 600_000;

describe('BuildPublisher racing another publish (real Postgres, fs store)', () => {
  const fixture = useTestPool();
  let prisma: PrismaClient;
  let pool: Pool;
  let dir: string;
  let store: BlobStore;
  let repositories: ReturnType<typeof createRepositories>;

  beforeAll(async () => {
    prisma = createPrismaClient(fixture.db.url, { poolSize: 4 });
    pool = createPgPool(fixture.db.url, { max: 4 });
    dir = await mkdtemp(path.join(tmpdir(), 'publish-race-'));
    store = createBlobStore({ driver: 'fs', dir, graceMs: GRACE_MS }, prisma, pool);
    repositories = createRepositories(prisma, pool);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await pool?.end();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  function publisher(manifests: ManifestRepository): BuildPublisher {
    return new BuildPublisher({ ...repositories, manifests, store, announce: async () => {} });
  }

  /** A build of the site with one stored render per shard, as the render step leaves it. */
  async function buildWith(siteId: string, renders: { shardId: bigint; changeSeq: bigint; text: string }[]) {
    const build = await prisma.build.create({ data: { siteId, status: 'running', startedAt: new Date() } });
    for (const { shardId, changeSeq, text } of renders) {
      const xml = Buffer.from(`<urlset><url><loc>https://example.com/${text}</loc></url></urlset>`);
      const gzip = gzipSync(xml);
      const sha256 = await store.put(siteId, gzip, xml.length);
      const file: RenderedFile = {
        path: `sitemap-${shardId}.xml.gz`,
        sha256,
        kind: 'shard',
        byteSize: xml.length,
        gzipSize: gzip.length,
        urlCount: 1,
        lastmod: null,
      };
      await repositories.builds.saveRender({
        buildId: build.id,
        shardId,
        changeSeq,
        files: [file],
        urlCount: 1,
        timings: { readMs: 0, renderMs: 0, gzipMs: 0, storeMs: 0 },
      });
    }
    return build;
  }

  it('leaves no stored blob that no manifest lists once GC has run after the grace period', async () => {
    const site = await insertSite(fixture.pool);
    const [one, two, three] = await Promise.all(
      [1, 2, 3].map((ordinal) => prisma.shard.create({ data: { siteId: site.id, ordinal, changeSeq: 2 } })),
    );
    // A rendered shard one before its last change, and shard two; B rendered shard one since, and
    // shard three (so the index A made first lists fewer files than the one it publishes).
    const a = await buildWith(site.id, [
      { shardId: one!.id, changeSeq: 1n, text: 'one-old' },
      { shardId: two!.id, changeSeq: 2n, text: 'two' },
    ]);
    const b = await buildWith(site.id, [
      { shardId: one!.id, changeSeq: 2n, text: 'one-new' },
      { shardId: three!.id, changeSeq: 2n, text: 'three' },
    ]);

    // Hold A between storing its index and switching the manifest, publish B meanwhile.
    let reached!: () => void;
    const atSwitch = new Promise<void>((resolve) => (reached = resolve));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const tries: boolean[] = [];
    const held = Object.create(repositories.manifests) as ManifestRepository;
    held.switch = async (next: ManifestSwitch) => {
      if (tries.length === 0) {
        reached();
        await gate;
      }
      const switched = await repositories.manifests.switch(next);
      tries.push(switched);
      return switched;
    };
    const publishingA = publisher(held).publish({ v: 1, siteId: site.id, buildId: a.id });
    await atSwitch;
    expect(await publisher(repositories.manifests).publish({ v: 1, siteId: site.id, buildId: b.id })).toBe(true);
    open();
    expect(await publishingA).toBe(true);
    expect(tries).toEqual([false, true]);

    // The grace period passes for whatever was released; then GC runs.
    await prisma.$executeRaw`UPDATE blobs SET released_at = released_at - interval '1 day'
      WHERE site_id = ${site.id}::uuid AND released_at IS NOT NULL`;
    await store.collectGarbage(GRACE_MS);

    const manifest = await repositories.manifests.current(site.id);
    const listed = [...new Set(Object.values(manifest!.files).map((file) => file.sha256))].sort();
    const paths = [one, two, three].map((shard) => `sitemap-${shard!.id}.xml.gz`);
    expect(Object.keys(manifest!.files).sort()).toEqual([...paths, 'sitemap.xml'].sort());
    const rows = await prisma.blob.findMany({ where: { siteId: site.id }, select: { sha256: true } });
    expect(rows.map((row) => row.sha256).sort()).toEqual(listed);
    const files = await readdir(path.join(dir, site.id), { recursive: true, withFileTypes: true });
    const stored = files.filter((entry) => entry.isFile()).map((entry) => entry.name.replace(/\.gz$/, ''));
    expect(stored.sort()).toEqual(listed);
    for (const sha256 of listed) expect(await store.get(site.id, sha256)).not.toBeNull();
  });
});
