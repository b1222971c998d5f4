import type { Pool } from 'pg';
import type { PrismaClient } from '@sitemaps/data';
import { assertBlobRef, blobKey, type BlobStore } from './blob-store';
import { deleteCollectibleRows, GC_BATCH } from './blob.repository';

/**
 * Bytes in `blobs.body`: one system to back up, fine while files stay a few MiB gzipped. The
 * bytes go through the pg pool, not Prisma: Prisma's query path keeps memory in proportion to
 * the largest parameters it has carried (measured: +270 MB RSS after twenty 3 MB inserts).
 */
export class PostgresBlobStore implements BlobStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: Pool,
  ) {}

  async put(siteId: string, gzip: Buffer, byteSize: number): Promise<string> {
    const sha256 = blobKey(gzip);
    assertBlobRef(siteId, sha256);
    // Same statement as upsertBlobRow: a put re-marks a released blob live.
    await this.pool.query(
      `INSERT INTO blobs (site_id, sha256, body, gzip_size, byte_size) VALUES ($1::uuid, $2, $3, $4, $5)
       ON CONFLICT (site_id, sha256) DO UPDATE SET released_at = NULL`,
      [siteId, sha256, gzip, gzip.length, byteSize],
    );
    return sha256;
  }

  async get(siteId: string, sha256: string): Promise<Buffer | null> {
    assertBlobRef(siteId, sha256);
    const { rows } = await this.pool.query<{ body: Buffer | null }>(
      'SELECT body FROM blobs WHERE site_id = $1::uuid AND sha256 = $2',
      [siteId, sha256],
    );
    return rows[0]?.body ?? null;
  }

  async collectGarbage(graceMs: number): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await deleteCollectibleRows(this.prisma, graceMs, GC_BATCH);
      total += deleted.length;
      if (deleted.length < GC_BATCH) return total;
    }
  }
}
