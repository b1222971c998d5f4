// The `blobs` rows every driver keeps (with the bytes for the postgres driver, without for fs and
// s3). Row locks order `save` against GC: a save re-marks a released blob live (or waits for
// GC's delete to commit and inserts afresh), and GC locks the rows it takes, so a blob is never
// deleted under a save that wants it.
import type { Pool } from 'pg';
import type { PrismaClient } from '@sitemaps/data';

export interface BlobRef {
  siteId: string;
  sha256: string;
}

export interface BlobRow extends BlobRef {
  /** The gzip bytes, for the postgres driver; null when they live elsewhere. */
  body: Buffer | null;
  gzipSize: number;
  byteSize: number;
}

/** Blobs GC deletes per transaction; under S3's DeleteObjects limit of 1,000 keys. */
export const GC_BATCH = 500;

/**
 * A blob no publish released (a worker died between a lost publish attempt and the win, a build
 * failed after rendering) is collected once it is this old, not listed, and its site has no
 * build queued or running: far longer than any build takes, so no render in flight is taken.
 */
export const ORPHAN_AFTER_MS = 6 * 3600_000;

export class BlobRepository {
  /**
   * Bytes go through the pg pool, not Prisma: Prisma's query path keeps memory in proportion to
   * the largest parameters it has carried (measured: +270 MB RSS after twenty 3 MB inserts).
   */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: Pool,
  ) {}

  /** Inserts the row, or marks an existing (perhaps released) one live again. */
  async save(row: BlobRow): Promise<void> {
    await this.pool.query(
      `INSERT INTO blobs (site_id, sha256, body, gzip_size, byte_size) VALUES ($1::uuid, $2, $3, $4, $5)
       ON CONFLICT (site_id, sha256) DO UPDATE SET released_at = NULL`,
      [row.siteId, row.sha256, row.body, row.gzipSize, row.byteSize],
    );
  }

  /** The stored bytes; null when the row is missing or keeps none. */
  async body({ siteId, sha256 }: BlobRef): Promise<Buffer | null> {
    const { rows } = await this.pool.query<{ body: Buffer | null }>(
      'SELECT body FROM blobs WHERE site_id = $1::uuid AND sha256 = $2',
      [siteId, sha256],
    );
    return rows[0]?.body ?? null;
  }

  /** Whether the site's row exists: a site's files are removed only once it is gone. */
  async siteExists(siteId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('SELECT 1 FROM sites WHERE id = $1::uuid', [siteId]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * Deletes the blobs released more than `graceMs` ago, GC_BATCH at a time, and returns how many.
   * `removeBytes`, when the bytes live outside the row, runs for each batch while its rows are
   * still locked: a concurrent save of the same bytes waits, then writes them again.
   */
  async collect(graceMs: number, removeBytes?: (refs: BlobRef[]) => Promise<void>): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = removeBytes
        ? await this.prisma.$transaction(
            async (tx) => {
              const rows = await deleteCollectible(tx, graceMs);
              await removeBytes(rows);
              return rows.length;
            },
            { timeout: 60_000 },
          )
        : (await deleteCollectible(this.prisma, graceMs)).length;
      total += deleted;
      if (deleted < GC_BATCH) return total;
    }
  }
}

/**
 * Deletes up to GC_BATCH blobs released more than `graceMs` ago (database clock, the one that
 * stamped `released_at`), or orphaned (ORPHAN_AFTER_MS), and not listed in their site's current
 * manifest, whatever their flag says. SKIP LOCKED lets concurrent collectors and saves pass each
 * other without waiting.
 */
function deleteCollectible(db: Pick<PrismaClient, '$queryRaw'>, graceMs: number): Promise<BlobRef[]> {
  return db.$queryRaw<BlobRef[]>`
    WITH doomed AS (
      SELECT b.site_id, b.sha256 FROM blobs b
      WHERE (b.released_at < now() - ${graceMs}::float8 * interval '1 millisecond'
          OR (b.released_at IS NULL AND b.created_at < now() - ${ORPHAN_AFTER_MS}::float8 * interval '1 millisecond'
              AND NOT EXISTS (
                SELECT 1 FROM builds x WHERE x.site_id = b.site_id AND x.status IN ('queued', 'running'))))
        AND NOT EXISTS (
          SELECT 1 FROM manifests m, jsonb_each(m.files) f
          WHERE m.site_id = b.site_id AND f.value->>'sha256' = b.sha256)
      LIMIT ${GC_BATCH}
      FOR UPDATE OF b SKIP LOCKED)
    DELETE FROM blobs b USING doomed d
    WHERE b.site_id = d.site_id AND b.sha256 = d.sha256
    RETURNING b.site_id::text AS "siteId", b.sha256`;
}
