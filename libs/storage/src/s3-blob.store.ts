import type { S3Client } from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '@sitemaps/config';
import { blobKey, blobPath, siteBlobFolder, type BlobStore } from './blob.store';
import type { BlobRef, BlobRepository } from './blob.repository';

/**
 * Bytes as objects under `<prefix><site id>/<2 hex>/<sha256>.gz` (the fs driver's layout, so a
 * directory syncs into a bucket as it is); the `blobs` row (body null) keeps the bookkeeping GC
 * needs, as for the fs driver. Objects are immutable and named by their content, so a CDN in front
 * of the bucket may cache them forever.
 */
export class S3BlobStore implements BlobStore {
  private connection: Promise<S3Connection> | undefined;

  constructor(
    private readonly rows: BlobRepository,
    private readonly connect: () => Promise<S3Connection>,
    private readonly config: Pick<S3StorageConfig, 'bucket' | 'prefix'>,
  ) {}

  async put(siteId: string, gzip: Buffer, byteSize: number): Promise<string> {
    const sha256 = blobKey(gzip);
    const key = this.keyOf({ siteId, sha256 });
    // Row first: it waits for a GC that is deleting this blob, so GC cannot delete the object after we wrote it.
    await this.rows.save({ siteId, sha256, body: null, gzipSize: gzip.length, byteSize });
    if (await this.exists(key)) return sha256;
    const { sdk, client } = await this.s3();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: gzip,
        ContentType: 'application/gzip',
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
    return sha256;
  }

  async get(siteId: string, sha256: string): Promise<Buffer | null> {
    const key = this.keyOf({ siteId, sha256 });
    const { sdk, client } = await this.s3();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      if (!object.Body) return null;
      return Buffer.from(await object.Body.transformToByteArray());
    } catch (error) {
      if (error instanceof sdk.NoSuchKey) return null;
      throw error;
    }
  }

  collectGarbage(graceMs: number): Promise<number> {
    // Objects deleted while the rows are still locked: a concurrent put of the same bytes waits, then writes again.
    return this.rows.collect(graceMs, (refs) => this.deleteObjects(refs.map((ref) => this.keyOf(ref))));
  }

  /** Lists the site's objects a page (up to 1,000) at a time and deletes each page, until none is left. */
  async removeSite(siteId: string): Promise<number | null> {
    const folder = this.config.prefix + siteBlobFolder(siteId);
    if (await this.rows.siteExists(siteId)) return null;
    const { sdk, client } = await this.s3();
    let removed = 0;
    for (;;) {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: folder }));
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      if (keys.length === 0) return removed;
      await this.deleteObjects(keys);
      removed += keys.length;
    }
  }

  /** The object key of a blob: also the path under a CDN that serves the bucket (`STORAGE_PUBLIC_BASE_URL`). */
  keyOf({ siteId, sha256 }: BlobRef): string {
    return this.config.prefix + blobPath(siteId, sha256);
  }

  private s3(): Promise<S3Connection> {
    return (this.connection ??= this.connect());
  }

  private async exists(key: string): Promise<boolean> {
    const { sdk, client } = await this.s3();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return true;
    } catch (error) {
      if (error instanceof sdk.NotFound || error instanceof sdk.NoSuchKey) return false;
      throw error;
    }
  }

  private async deleteObjects(keys: string[]): Promise<void> {
    // GC_BATCH stays under DeleteObjects' 1,000 keys; a missing key counts as deleted.
    if (keys.length === 0) return;
    const { sdk, client } = await this.s3();
    const result = await client.send(
      new sdk.DeleteObjectsCommand({
        Bucket: this.config.bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    const failed = result.Errors ?? [];
    if (failed.length > 0) {
      const first = failed[0];
      throw new Error(
        `object store refused to delete ${failed.length} blob(s), first ${first?.Key}: ${first?.Code} ${first?.Message}`,
      );
    }
  }
}

export interface S3Connection {
  sdk: typeof import('@aws-sdk/client-s3');
  client: S3Client;
}

/**
 * Loads the AWS SDK and makes a client. Loaded on first use, not at import: it costs a process
 * 100 ms and 22 MB of RSS, and only processes configured with the s3 driver need it.
 */
export async function connectS3(config: S3StorageConfig): Promise<S3Connection> {
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // The SDK's default since 2025 adds CRC checksums that many S3-compatible stores reject or
    // ignore; send them only where the API requires one (DeleteObjects).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { sdk, client };
}
