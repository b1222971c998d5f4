import type { PrismaClient } from '@sitemaps/data';
import { assertBlobRef, blobKey, type BlobStore } from './blob-store';
import { deleteCollectibleRows, GC_BATCH, upsertBlobRow } from './blob.repository';

/** Bytes in `blobs.body`: one system to back up, fine while files stay a few MiB gzipped. */
export class PostgresBlobStore implements BlobStore {
  constructor(private readonly prisma: PrismaClient) {}

  async put(siteId: string, gzip: Buffer, byteSize: number): Promise<string> {
    const sha256 = blobKey(gzip);
    assertBlobRef(siteId, sha256);
    await upsertBlobRow(this.prisma, { siteId, sha256 }, gzip, gzip.length, byteSize);
    return sha256;
  }

  async get(siteId: string, sha256: string): Promise<Buffer | null> {
    assertBlobRef(siteId, sha256);
    const row = await this.prisma.blob.findUnique({
      where: { siteId_sha256: { siteId, sha256 } },
      select: { body: true },
    });
    return row?.body ? Buffer.from(row.body.buffer, row.body.byteOffset, row.body.byteLength) : null;
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
