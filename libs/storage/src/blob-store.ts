// Published files are content-addressed blobs: a new version never overwrites the old one, so
// switching a manifest is atomic and a crawler mid-download keeps its file until GC.

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

export interface BlobStore {
  /** Stores gzip bytes; idempotent (same bytes, same key). Returns the sha256 hex key. */
  put(siteId: string, gzip: Buffer, byteSize: number): Promise<string>;
  /** The gzip bytes, or null when the blob does not exist (never for a manifest-listed one). */
  get(siteId: string, sha256: string): Promise<Buffer | null>;
  /** Removes blobs released more than `graceMs` ago. Returns how many were deleted. */
  collectGarbage(graceMs: number): Promise<number>;
}
