// Published files are content-addressed blobs: a new version never overwrites the old one, so
// switching a manifest is atomic and a crawler mid-download keeps its file until GC.
import { createHash } from 'node:crypto';
import { z } from 'zod';

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

const BLOB_KEY = /^[0-9a-f]{64}$/;
const SITE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class BlobKeyError extends Error {
  readonly code = 'BLOB_KEY_INVALID';
  constructor(what: string) {
    super(`invalid blob ${what}`);
    this.name = 'BlobKeyError';
  }
}

/** The blob key of gzip bytes. */
export function blobKey(gzip: Buffer): string {
  return createHash('sha256').update(gzip).digest('hex');
}

/** Both parts of a blob's identity end up in file paths or queries: only canonical forms pass. */
export function assertBlobRef(siteId: string, sha256: string): void {
  if (!SITE_ID.test(siteId)) throw new BlobKeyError('site id');
  if (!BLOB_KEY.test(sha256)) throw new BlobKeyError('key');
}

/**
 * A blob's path below the store's root, the same for the fs and s3 drivers (and so for a CDN in
 * front of either): `<site id>/<2 hex>/<sha256>.gz`.
 */
export function blobPath(siteId: string, sha256: string): string {
  assertBlobRef(siteId, sha256);
  return `${siteId}/${sha256.slice(0, 2)}/${sha256}.gz`;
}

/** Written by the publish step, read by the public server: validated on read, as stored JSON can drift. */
export const manifestFileSchema = z.object({
  sha256: z.string().regex(BLOB_KEY),
  kind: z.enum(['index', 'shard', 'text']),
  byteSize: z.number().int().nonnegative(),
  gzipSize: z.number().int().nonnegative(),
  urlCount: z.number().int().nonnegative(),
  lastmod: z.string().nullable(),
}) satisfies z.ZodType<ManifestFile>;

export const manifestFilesSchema = z.record(z.string(), manifestFileSchema) satisfies z.ZodType<ManifestFiles>;
