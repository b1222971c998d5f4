// What a publish decides: the site's manifest with a build's shard renders merged in. Builds can
// run concurrently, so the merge is per shard and by version: a render older than the one the
// manifest already has for its shard changes nothing.
import { LEGACY_SHARD_FOLDER, SHARD_FILE_PREFIX } from '../shards/shard-naming';

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
  /**
   * When the bytes published at this path last changed (ISO 8601): the index's `<lastmod>` for
   * the file. Set by the merge; absent in renders and in manifests published before it existed.
   */
  modifiedAt?: string;
}

/** `manifests.files`: file path as served (e.g. `sitemap.xml`, `sitemap-1.xml.gz`) -> file. */
export type ManifestFiles = Record<string, ManifestFile>;

/** `manifests.redirects`: a path a site published before -> the path of the same file now (301). */
export type ManifestRedirects = Record<string, string>;

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
  /** The shard files (the index and the text files are made afterwards, from these). */
  files: ManifestFiles;
  shards: ShardVersions;
  /** The renders that went in: their shards are clean if still at that version. */
  applied: { shardId: bigint; changeSeq: bigint }[];
  /** Old paths still answered with a 301: each to a shard file the merged manifest lists. */
  redirects: ManifestRedirects;
}

/**
 * The current manifest (null: the site never published) with `renders` merged in, as of `now`
 * (ISO 8601). The index and the text files are dropped: they are made again from the merged shard
 * files. A file keeps its `modifiedAt` while the bytes at its path stay the same, and takes `now`
 * when they change (added, edited, a URL deleted or moved, an article expired): crawlers re-read
 * exactly the files whose index `<lastmod>` moved. A shard that moves from the legacy folder
 * leaves a redirect from its old path, kept as long as its new path is published.
 */
export function mergeManifest(
  current: { files: ManifestFiles; shards: ShardVersions; redirects?: ManifestRedirects } | null,
  renders: readonly ShardRenderOutput[],
  now: string,
): MergedManifest {
  const before = current?.files ?? {};
  const files: ManifestFiles = {};
  for (const [path, file] of Object.entries(before)) if (file.kind === 'shard') files[path] = file;
  const shards: ShardVersions = { ...current?.shards };
  const redirects: ManifestRedirects = { ...current?.redirects };
  const applied: MergedManifest['applied'] = [];
  for (const render of renders) {
    const key = String(render.shardId);
    const known = shards[key];
    if (known && BigInt(known.changeSeq) > render.changeSeq) continue; // a newer render is already live
    for (const path of known?.paths ?? []) delete files[path];
    for (const { path, ...file } of render.files) files[path] = file;
    if (render.files.length > 0) {
      const paths = render.files.map((file) => file.path);
      for (const [part, old] of (known?.paths ?? []).entries()) {
        if (old.startsWith(LEGACY_SHARD_FOLDER) && !paths.includes(old))
          redirects[old] = paths[part] ?? (paths[0] as string);
      }
      shards[key] = { changeSeq: String(render.changeSeq), paths };
    } else delete shards[key];
    applied.push({ shardId: render.shardId, changeSeq: render.changeSeq });
  }
  for (const [path, file] of Object.entries(files)) files[path] = stampModified(before[path], file, now);
  for (const [from, to] of Object.entries(redirects)) if (!files[to]) delete redirects[from];
  return { files, shards, applied, redirects };
}

/**
 * `file` as published at a path that held `previous`: its modification time kept if its bytes are
 * the same, else `now` — and at least the second after the previous time, because the index shows
 * whole seconds: a change published within the second of the last one must still move the date.
 */
export function stampModified(previous: ManifestFile | undefined, file: ManifestFile, now: string): ManifestFile {
  let modifiedAt = now;
  if (previous?.modifiedAt) {
    if (previous.sha256 === file.sha256) modifiedAt = previous.modifiedAt;
    else {
      const nextSecond = Math.floor(Date.parse(previous.modifiedAt) / 1000) * 1000 + 1000;
      if (Date.parse(now) < nextSecond) modifiedAt = new Date(nextSecond).toISOString();
    }
  }
  return file.modifiedAt === modifiedAt ? file : { ...file, modifiedAt };
}

/**
 * The blobs a manifest switch leaves unlisted, each once: listed before, or `stored` for it (a
 * publish's renders, and what a lost attempt made), and not listed after. Released, GC takes them.
 */
export function droppedBlobs(before: ManifestFiles, after: ManifestFiles, stored: Iterable<string> = []): string[] {
  const live = new Set(Object.values(after).map((file) => file.sha256));
  const candidates = [...Object.values(before).map((file) => file.sha256), ...stored];
  return [...new Set(candidates.filter((sha) => !live.has(sha)))];
}

/** Index order: the default section first, then by section, then ordinal and part numerically. */
export function compareShardPaths(a: string, b: string): number {
  const key = (path: string) => {
    if (!path.startsWith(SHARD_FILE_PREFIX)) return [path, 0, 0] as const;
    const match = /^(?:(.+)-)?(\d+)(?:\.(\d+))?\.xml\.gz$/.exec(path.slice(SHARD_FILE_PREFIX.length));
    return match ? ([match[1] ?? '', Number(match[2]), Number(match[3] ?? 1)] as const) : ([path, 0, 0] as const);
  };
  const [pa, oa, qa] = key(a);
  const [pb, ob, qb] = key(b);
  return pa < pb ? -1 : pa > pb ? 1 : oa - ob || qa - qb;
}

/** The index's entries: every shard file of `files` in index order, dated by when its bytes last changed. */
export function indexEntries(files: ManifestFiles, origin: string): { loc: string; lastmod?: string }[] {
  return Object.keys(files)
    .filter((path) => files[path]?.kind === 'shard')
    .sort(compareShardPaths)
    .map((path) => {
      const modifiedAt = files[path]?.modifiedAt;
      return { loc: `${origin}/${path}`, ...(modifiedAt ? { lastmod: modifiedAt } : {}) };
    });
}
