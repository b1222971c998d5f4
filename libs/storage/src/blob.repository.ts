// The `blobs` bookkeeping both drivers share. Row locks order `put` against GC: a put re-marks a
// released blob live (or waits for GC's delete to commit and inserts afresh), and GC locks the
// rows it takes, so a blob is never deleted under a put that wants it.
import type { Prisma } from '@sitemaps/data';

type Db = Prisma.TransactionClient;

export interface BlobRef {
  siteId: string;
  sha256: string;
}

/** Inserts the row, or marks an existing (perhaps released) one live again. */
export async function upsertBlobRow(
  db: Db,
  ref: BlobRef,
  body: Buffer | null,
  gzipSize: number,
  byteSize: number,
): Promise<void> {
  await db.$executeRaw`
    INSERT INTO blobs (site_id, sha256, body, gzip_size, byte_size)
    VALUES (${ref.siteId}::uuid, ${ref.sha256}, ${body}, ${gzipSize}, ${byteSize})
    ON CONFLICT (site_id, sha256) DO UPDATE SET released_at = NULL`;
}

/**
 * Deletes up to `limit` blobs released more than `graceMs` ago (database clock, the one that
 * stamped `released_at`) and not listed in their site's current manifest, whatever their flag
 * says. SKIP LOCKED lets concurrent collectors and puts pass each other without waiting.
 */
export async function deleteCollectibleRows(db: Db, graceMs: number, limit: number): Promise<BlobRef[]> {
  return db.$queryRaw<BlobRef[]>`
    WITH doomed AS (
      SELECT b.site_id, b.sha256 FROM blobs b
      WHERE b.released_at < now() - ${graceMs}::float8 * interval '1 millisecond'
        AND NOT EXISTS (
          SELECT 1 FROM manifests m, jsonb_each(m.files) f
          WHERE m.site_id = b.site_id AND f.value->>'sha256' = b.sha256)
      LIMIT ${limit}
      FOR UPDATE OF b SKIP LOCKED)
    DELETE FROM blobs b USING doomed d
    WHERE b.site_id = d.site_id AND b.sha256 = d.sha256
    RETURNING b.site_id::text AS "siteId", b.sha256`;
}

export const GC_BATCH = 500;
