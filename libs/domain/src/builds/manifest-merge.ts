// What a publish decides: the site's manifest with a build's shard renders merged in. Builds can
// run concurrently, so the merge is per shard and by version: a render older than the one the
// manifest already has for its shard changes nothing.
import { INDEX_PATH, TEXT_SITEMAP_PATH } from '../shards/shard-naming';

/** One file of a site's published set, as the manifest records it. */
export interface ManifestFile {
  /** sha256 (hex) of the gzip bytes: the blob key and the strong ETag. */
  sha256: string;
  kind: 'index' | 'shard' | 'text';
  /** Uncompressed size in bytes. */
  byteSize: number;
  gzipSize: number;
  urlCount: number;
  /** W3C datetime of the newest lastmod in the file, if any. */
  lastmod: string | null;
}

/** `manifests.files`: file path as served (e.g. `sitemap.xml`, `sitemaps/sitemap-1.xml.gz`) -> file. */
export type ManifestFiles = Record<string, ManifestFile>;

/** `manifests.shards`: shard id -> the version of it the manifest's files are, and their paths. */
export type ShardVersions = Record<string, { changeSeq: string; paths: string[] }>;

/** A file a shard rendered to, with the path it is served at. */
export interface RenderedFile extends ManifestFile {
  path: string;
}

/** One shard's render in a build (`shard_renders`). */
export interface ShardRenderOutput {
  shardId: bigint;
  changeSeq: bigint;
  /** Empty when the shard had no live URL: its files leave the manifest. */
  files: RenderedFile[];
}

export interface MergedManifest {
  /** The shard files (the index and sitemap.txt are made afterwards, from these). */
  files: ManifestFiles;
  shards: ShardVersions;
  /** The renders that went in: their shards are clean if still at that version. */
  applied: { shardId: bigint; changeSeq: bigint }[];
}

/**
 * The current manifest (null: the site never published) with `renders` merged in. The index and
 * sitemap.txt are dropped: they are made again from the merged shard files.
 */
export function mergeManifest(
  current: { files: ManifestFiles; shards: ShardVersions } | null,
  renders: readonly ShardRenderOutput[],
): MergedManifest {
  const files: ManifestFiles = { ...current?.files };
  delete files[INDEX_PATH];
  delete files[TEXT_SITEMAP_PATH];
  const shards: ShardVersions = { ...current?.shards };
  const applied: MergedManifest['applied'] = [];
  for (const render of renders) {
    const key = String(render.shardId);
    const known = shards[key];
    if (known && BigInt(known.changeSeq) > render.changeSeq) continue; // a newer render is already live
    for (const path of known?.paths ?? []) delete files[path];
    for (const { path, ...file } of render.files) files[path] = file;
    if (render.files.length > 0)
      shards[key] = { changeSeq: String(render.changeSeq), paths: render.files.map((file) => file.path) };
    else delete shards[key];
    applied.push({ shardId: render.shardId, changeSeq: render.changeSeq });
  }
  return { files, shards, applied };
}

/** The blobs a manifest switch drops: listed before, not after (each once). */
export function droppedBlobs(before: ManifestFiles, after: ManifestFiles): string[] {
  const live = new Set(Object.values(after).map((file) => file.sha256));
  return [
    ...new Set(
      Object.values(before)
        .map((file) => file.sha256)
        .filter((sha) => !live.has(sha)),
    ),
  ];
}

/** Index order: by section file prefix, then ordinal and part numerically. */
export function compareShardPaths(a: string, b: string): number {
  const key = (path: string) => {
    const match = /^sitemaps\/(.+)-(\d+)(?:-(\d+))?\.xml\.gz$/.exec(path);
    return match ? ([match[1] ?? '', Number(match[2]), Number(match[3] ?? 1)] as const) : ([path, 0, 0] as const);
  };
  const [pa, oa, qa] = key(a);
  const [pb, ob, qb] = key(b);
  return pa < pb ? -1 : pa > pb ? 1 : oa - ob || qa - qb;
}

/** The newest lastmod among files (W3C datetimes compared as instants), or null. */
export function newestLastmod(files: readonly ManifestFile[]): string | null {
  const dated = files.filter((file) => file.lastmod).map((file) => file.lastmod as string);
  return dated.sort((a, b) => Date.parse(b) - Date.parse(a))[0] ?? null;
}
