import { assertBlobRef, blobKey, type BlobStore } from './blob.store';
import type { BlobRepository } from './blob.repository';

/** Bytes in `blobs.body`: one system to back up, fine while files stay a few MiB gzipped. */
export class PostgresBlobStore implements BlobStore {
  constructor(private readonly rows: BlobRepository) {}

  async put(siteId: string, gzip: Buffer, byteSize: number): Promise<string> {
    const sha256 = blobKey(gzip);
    assertBlobRef(siteId, sha256);
    await this.rows.save({ siteId, sha256, body: gzip, gzipSize: gzip.length, byteSize });
    return sha256;
  }

  async get(siteId: string, sha256: string): Promise<Buffer | null> {
    assertBlobRef(siteId, sha256);
    return this.rows.body({ siteId, sha256 });
  }

  collectGarbage(graceMs: number): Promise<number> {
    return this.rows.collect(graceMs);
  }

  /** The bytes were in the rows, which went with the site. */
  async removeSite(siteId: string): Promise<number | null> {
    return (await this.rows.siteExists(siteId)) ? null : 0;
  }
}
