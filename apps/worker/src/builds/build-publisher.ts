// Last step of a build: merge the rendered shards into the site's manifest, write the index,
// and switch the manifest in one transaction. Crawlers see the old set or the new one, never a
// mix: every file the new index names is stored before the switch.
import type { Prisma, PrismaClient } from '@sitemaps/data';
import { INDEX_PATH } from '@sitemaps/domain';
import type { PublishBuildPayload } from '@sitemaps/jobs';
import { gzipFile, renderSitemapIndex } from '@sitemaps/sitemap-xml';
import type { BlobStore, ManifestFile, ManifestFiles } from '@sitemaps/storage';
import type { RenderedFile, StageTimings } from './shard-renderer';
import { renderTextSitemapFile, TEXT_SITEMAP_PATH } from './text-sitemap-renderer';

type ShardVersions = Record<string, { changeSeq: string; paths: string[] }>;

export class BuildPublisher {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly store: BlobStore,
    private readonly announce: (siteId: string) => Promise<void>,
    /** Hands the published build on (IndexNow); must be idempotent per build. */
    private readonly afterPublish: (siteId: string, buildId: string) => Promise<void> = async () => {},
  ) {}

  async publish(payload: PublishBuildPayload): Promise<boolean> {
    const build = await loadBuild(this.prisma, payload.buildId);
    if (!build) return false;
    // A retry after the switch committed: the hand-off may be the step that failed.
    if (build.status === 'published') {
      await this.afterPublish(build.siteId, build.id);
      return false;
    }
    // Another build may publish the same site meanwhile: compare-and-swap on the version, retry.
    for (let attempt = 0; attempt < 20; attempt += 1) {
      if (await this.tryPublish(build)) {
        await this.announce(build.siteId);
        await this.afterPublish(build.siteId, build.id);
        return true;
      }
    }
    throw new Error(`manifest of site ${build.siteId} kept changing during publish`);
  }

  private async tryPublish(build: LoadedBuild): Promise<boolean> {
    const current = await this.prisma.manifest.findUnique({ where: { siteId: build.siteId } });
    const files: ManifestFiles = { ...((current?.files ?? {}) as unknown as ManifestFiles) };
    delete files[INDEX_PATH];
    delete files[TEXT_SITEMAP_PATH];
    const versions: ShardVersions = { ...((current?.shards ?? {}) as unknown as ShardVersions) };
    const applied: { shardId: bigint; changeSeq: bigint }[] = [];
    for (const render of build.renders) {
      const key = String(render.shardId);
      const known = versions[key];
      if (known && BigInt(known.changeSeq) > render.changeSeq) continue; // a newer render is already live
      for (const path of known?.paths ?? []) delete files[path];
      const rendered = render.files as unknown as RenderedFile[];
      for (const { path, ...file } of rendered) files[path] = file;
      if (rendered.length > 0) versions[key] = { changeSeq: String(render.changeSeq), paths: rendered.map((file) => file.path) };
      else delete versions[key];
      applied.push({ shardId: render.shardId, changeSeq: render.changeSeq });
    }

    const origin = `${build.site.scheme}://${build.site.hostname}`;
    const shardPaths = Object.keys(files).sort(compareShardPaths);
    if (shardPaths.length > 0) {
      const xml = Buffer.from(
        renderSitemapIndex(shardPaths.map((path) => ({ loc: `${origin}/${path}`, ...(files[path]?.lastmod ? { lastmod: files[path].lastmod } : {}) }))),
      );
      const gzip = await gzipFile([xml]);
      const sha256 = await this.store.put(build.siteId, gzip, xml.length);
      files[INDEX_PATH] = { sha256, kind: 'index', byteSize: xml.length, gzipSize: gzip.length, urlCount: 0, lastmod: newest(shardPaths.map((p) => files[p] as ManifestFile)) };
    }
    const text = build.site.textSitemap ? await renderTextSitemapFile(this.prisma, this.store, build.siteId) : null;
    if (text) files[TEXT_SITEMAP_PATH] = text;

    const live = new Set(Object.values(files).map((file) => file.sha256));
    const dropped = Object.values((current?.files ?? {}) as unknown as ManifestFiles).map((file) => file.sha256).filter((sha) => !live.has(sha));
    const totals = shardPaths.reduce((sum, path) => ({ urls: sum.urls + (files[path]?.urlCount ?? 0), bytes: sum.bytes + (files[path]?.byteSize ?? 0) }), { urls: 0, bytes: 0 });
    const totalShards = await this.prisma.shard.count({ where: { siteId: build.siteId } });
    const now = new Date();

    return this.prisma.$transaction(async (tx) => {
      const switched = current
        ? (await tx.manifest.updateMany({ where: { siteId: build.siteId, version: current.version }, data: { version: current.version + 1, buildId: build.id, files: asJson(files), shards: asJson(versions), publishedAt: now } })).count === 1
        : (await tx.manifest.createMany({ data: [{ siteId: build.siteId, version: 1, buildId: build.id, files: asJson(files), shards: asJson(versions), publishedAt: now }], skipDuplicates: true })).count === 1;
      if (!switched) return false;
      await tx.blob.updateMany({ where: { siteId: build.siteId, sha256: { in: dropped }, releasedAt: null }, data: { releasedAt: now } });
      await tx.blob.updateMany({ where: { siteId: build.siteId, sha256: { in: [...live] } }, data: { releasedAt: null } });
      // One statement for all shards (a full build of a large site renders thousands). A shard
      // that changed again after its render keeps its flag: the next build picks it up.
      if (applied.length > 0) {
        await tx.$executeRaw`
          UPDATE shards s SET dirty = false FROM unnest(${applied.map((a) => a.shardId)}::bigint[], ${applied.map((a) => a.changeSeq)}::bigint[]) AS r(id, seq)
           WHERE s.id = r.id AND s.change_seq = r.seq`;
      }
      await tx.build.update({
        where: { id: build.id },
        data: {
          status: 'published',
          finishedAt: now,
          shardsRendered: build.renders.length,
          shardsSkipped: Math.max(0, totalShards - build.renders.length),
          urlCount: totals.urls,
          byteSize: BigInt(totals.bytes),
          timings: stageTotals(build.renders.map((render) => render.timings as unknown as StageTimings | null), build.startedAt, now),
        },
      });
      return true;
    });
  }
}

function loadBuild(prisma: PrismaClient, id: string) {
  return prisma.build.findUnique({ where: { id }, include: { site: true, renders: true } });
}
type LoadedBuild = NonNullable<Awaited<ReturnType<typeof loadBuild>>>;

/** Index order: by section file prefix, then ordinal and part numerically. */
function compareShardPaths(a: string, b: string): number {
  const key = (path: string) => {
    const match = /^sitemaps\/(.+)-(\d+)(?:-(\d+))?\.xml\.gz$/.exec(path);
    return match ? [match[1] ?? '', Number(match[2]), Number(match[3] ?? 1)] as const : [path, 0, 0] as const;
  };
  const [pa, oa, qa] = key(a);
  const [pb, ob, qb] = key(b);
  return pa < pb ? -1 : pa > pb ? 1 : oa - ob || qa - qb;
}

/** Sums of the shard stages (CPU-ish time across workers) and the build's wall time. */
function stageTotals(stages: (StageTimings | null)[], startedAt: Date | null, finishedAt: Date) {
  const sum = { readMs: 0, renderMs: 0, gzipMs: 0, storeMs: 0 };
  for (const stage of stages) {
    if (!stage) continue;
    sum.readMs += stage.readMs;
    sum.renderMs += stage.renderMs;
    sum.gzipMs += stage.gzipMs;
    sum.storeMs += stage.storeMs;
  }
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    readMs: round(sum.readMs),
    renderMs: round(sum.renderMs),
    gzipMs: round(sum.gzipMs),
    storeMs: round(sum.storeMs),
    wallMs: startedAt ? finishedAt.getTime() - startedAt.getTime() : null,
  };
}

const asJson = (value: object) => value as Prisma.InputJsonObject;

function newest(files: ManifestFile[]): string | null {
  const dated = files.filter((file) => file.lastmod).map((file) => file.lastmod as string);
  return dated.sort((a, b) => Date.parse(b) - Date.parse(a))[0] ?? null;
}
