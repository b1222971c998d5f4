import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { blobKey, blobPath, siteBlobFolder, type BlobStore } from './blob.store';
import type { BlobRef, BlobRepository } from './blob.repository';

/**
 * Bytes under `dir/<site id>/<2 hex>/<sha256>.gz`; the `blobs` row (body null) keeps the
 * bookkeeping GC needs. Paths are built only from a validated uuid and hex key, never from input.
 */
export class FsBlobStore implements BlobStore {
  private readonly root: string;

  constructor(
    private readonly rows: BlobRepository,
    dir: string,
  ) {
    this.root = path.resolve(dir);
  }

  async put(siteId: string, gzip: Buffer, byteSize: number): Promise<string> {
    const sha256 = blobKey(gzip);
    const file = this.pathOf({ siteId, sha256 });
    // Row first: it waits for a GC that is deleting this blob, so GC cannot unlink the file after we wrote it.
    await this.rows.save({ siteId, sha256, body: null, gzipSize: gzip.length, byteSize });
    if (!(await exists(file))) await writeAtomically(file, gzip);
    return sha256;
  }

  async get(siteId: string, sha256: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf({ siteId, sha256 }));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  collectGarbage(graceMs: number): Promise<number> {
    // Unlinked while the rows are still locked: a concurrent put of the same bytes waits, then rewrites the file.
    return this.rows.collect(graceMs, async (refs) => {
      await Promise.all(refs.map((ref) => rm(this.pathOf(ref), { force: true })));
    });
  }

  async removeSite(siteId: string): Promise<number | null> {
    const folder = path.join(this.root, siteBlobFolder(siteId));
    if (await this.rows.siteExists(siteId)) return null;
    const files = await readdir(folder, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
      if (isNotFound(error)) return [];
      throw error;
    });
    await rm(folder, { recursive: true, force: true });
    return files.filter((entry) => entry.isFile()).length;
  }

  private pathOf({ siteId, sha256 }: BlobRef): string {
    return path.join(this.root, blobPath(siteId, sha256));
  }
}

/** Readers see no file or the whole file: write a private temp name, flush, then rename in place. */
async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
