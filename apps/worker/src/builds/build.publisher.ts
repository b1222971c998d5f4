// Last step of a build: merge the rendered shards into the site's manifest, write the index,
// and switch the manifest in one transaction. Crawlers see the old set or the new one, never a
// mix: every file the new index names is stored before the switch.
import type {
  BuildRepository,
  BuildToPublish,
  CurrentManifest,
  ManifestRepository,
  ShardRepository,
  StageTimings,
  UrlRepository,
} from '@sitemaps/data';
import {
  droppedBlobs,
  exclusionPatterns,
  INDEX_PATH,
  indexEntries,
  mergeManifest,
  stampModified,
  stylesheetHref,
  validateExclusionRules,
} from '@sitemaps/domain';
import type { PublishBuildPayload } from '@sitemaps/jobs';
import { gzipFile, renderSitemapIndex } from '@sitemaps/sitemap-xml';
import type { BlobStore } from '@sitemaps/storage';
import { renderTextSitemapFiles } from './text-sitemap.renderer';

export interface BuildPublisherDeps {
  builds: BuildRepository;
  manifests: ManifestRepository;
  shards: ShardRepository;
  urls: UrlRepository;
  store: BlobStore;
  announce: (siteId: string) => Promise<void>;
  /** Hands the published build on (IndexNow); must be idempotent per build. */
  afterPublish?: (siteId: string, buildId: string) => Promise<void>;
  /** Told once per build when its manifest switch commits (metrics). */
  published?: (build: PublishedBuild) => void;
}

/** What a publish did, for metrics: the build's wall time and its shards. */
export interface PublishedBuild {
  wallMs: number | null;
  shardsRendered: number;
  shardsSkipped: number;
}

export class BuildPublisher {
  private readonly afterPublish: (siteId: string, buildId: string) => Promise<void>;

  constructor(private readonly deps: BuildPublisherDeps) {
    this.afterPublish = deps.afterPublish ?? (async () => {});
  }

  async publish(payload: PublishBuildPayload): Promise<boolean> {
    // Read at once, not one after another: a one-URL change waits for each round trip here.
    const [loaded, first, totalShards] = await Promise.all([
      this.deps.builds.loadForPublish(payload.buildId),
      this.deps.manifests.current(payload.siteId),
      this.deps.shards.count(payload.siteId),
    ]);
    if (!loaded) return false;
    const { build } = loaded;
    // A retry after the switch committed: the hand-off may be the step that failed.
    if (build.status === 'published') {
      await this.afterPublish(build.siteId, build.id);
      return false;
    }
    // Another build may publish the same site meanwhile: compare-and-swap on the version, retry.
    // What this publish and its renders stored stays live until a switch wins; that switch releases
    // what its manifest does not list (a lost attempt's index, a render a newer one beat): GC only
    // ever takes released blobs.
    const stored = new Set(loaded.renders.flatMap((render) => render.files.map((file) => file.sha256)));
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const current = attempt === 0 ? first : await this.deps.manifests.current(build.siteId);
      if (await this.tryPublish(loaded, { current, totalShards, stored })) {
        await this.deps.announce(build.siteId);
        await this.afterPublish(build.siteId, build.id);
        return true;
      }
    }
    throw new Error(`manifest of site ${build.siteId} kept changing during publish`);
  }

  private async tryPublish(
    { build, site, renders }: BuildToPublish,
    { current, totalShards, stored }: { current: CurrentManifest | null; totalShards: number; stored: Set<string> },
  ): Promise<boolean> {
    const now = new Date();
    const stamp = now.toISOString();
    const { files, shards, applied, redirects } = mergeManifest(current, renders, stamp);
    const before = current?.files ?? {};

    const shardPaths = Object.keys(files);
    if (shardPaths.length > 0) {
      const entries = indexEntries(files, `${site.scheme}://${site.hostname}`);
      const xml = Buffer.from(
        renderSitemapIndex(entries, { stylesheet: site.xslStylesheet ? stylesheetHref(INDEX_PATH) : null }),
      );
      const gzip = await gzipFile([xml]);
      const sha256 = await this.deps.store.put(build.siteId, gzip, xml.length);
      stored.add(sha256);
      // Every lastmod is a `toISOString()` after the merge: compared as strings, they compare as instants.
      const newest = entries.map((entry) => entry.lastmod ?? '').reduce((a, b) => (b > a ? b : a), '') || null;
      files[INDEX_PATH] = stampModified(
        before[INDEX_PATH],
        { sha256, kind: 'index', byteSize: xml.length, gzipSize: gzip.length, urlCount: 0, lastmod: newest },
        stamp,
      );
    }
    if (site.textSitemap) {
      for (const [path, text] of await renderTextSitemapFiles(this.deps.urls, this.deps.store, {
        siteId: build.siteId,
        exclusionPatterns: exclusionPatterns(validateExclusionRules(site.exclusionRules)),
      })) {
        stored.add(text.sha256);
        files[path] = stampModified(before[path], text, stamp);
      }
    }

    const totals = shardPaths.reduce(
      (sum, path) => ({
        urls: sum.urls + (files[path]?.urlCount ?? 0),
        bytes: sum.bytes + (files[path]?.byteSize ?? 0),
      }),
      { urls: 0, bytes: 0 },
    );
    const switched = await this.deps.manifests.switch({
      siteId: build.siteId,
      buildId: build.id,
      expectedVersion: current?.version ?? null,
      files,
      shards,
      redirects,
      dropped: droppedBlobs(before, files, stored),
      applied,
      totals: {
        shardsRendered: renders.length,
        shardsSkipped: Math.max(0, totalShards - renders.length),
        urlCount: totals.urls,
        byteSize: totals.bytes,
        timings: stageTotals(
          renders.map((render) => render.timings),
          build.startedAt,
          now,
        ),
      },
      now,
    });
    if (switched)
      this.deps.published?.({
        wallMs: build.startedAt ? now.getTime() - build.startedAt.getTime() : null,
        shardsRendered: renders.length,
        shardsSkipped: Math.max(0, totalShards - renders.length),
      });
    return switched;
  }
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
