// Published files are content-addressed blobs: a new version never overwrites the old one, so
// switching a manifest is atomic and a crawler mid-download keeps its file until GC.
import { createHash } from 'node:crypto';

export type { ManifestFile, ManifestFiles } from '@sitemaps/domain';
export { manifestFileSchema, manifestFilesSchema } from '@sitemaps/data';

export interface BlobStore {
  /** Stores gzip bytes; idempotent (same bytes, same key). Returns the sha256 hex key. */
  put(siteId: string, gzip: Buffer, byteSize: number): Promise<string>;
  /** The gzip bytes, or null when the blob does not exist (never for a manifest-listed one). */
  get(siteId: string, sha256: string): Promise<Buffer | null>;
  /** Removes blobs released more than `graceMs` ago. Returns how many were deleted. */
  collectGarbage(graceMs: number): Promise<number>;
  /**
   * Removes every stored file of a deleted site (its `blobs` rows went with it) and returns how
   * many; idempotent. Null, removing nothing, while the site still exists.
   */
  removeSite(siteId: string): Promise<number | null>;
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

/** The folder of a site's blobs below the store's root (`<site id>/`). */
export function siteBlobFolder(siteId: string): string {
  if (!SITE_ID.test(siteId)) throw new BlobKeyError('site id');
  return `${siteId}/`;
}

/**
 * A blob's path below the store's root, the same for the fs and s3 drivers (and so for a CDN in
 * front of either): `<site id>/<2 hex>/<sha256>.gz`.
 */
export function blobPath(siteId: string, sha256: string): string {
  assertBlobRef(siteId, sha256);
  return `${siteId}/${sha256.slice(0, 2)}/${sha256}.gz`;
}
