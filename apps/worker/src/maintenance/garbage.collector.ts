// Deletes what is no longer served or needed: blobs a publish dropped, once crawlers that
// started a download before the switch have had the grace period to finish, old render records
// expired idempotency keys, and sessions, invitations and password resets that sign nobody in;
// and the files of deleted sites, whose rows (and with them GC's bookkeeping) went with the site.
import { Logger } from '@nestjs/common';
import type { BuildRepository, IdempotencyKeyRepository, PersonRepository } from '@sitemaps/data';
import type { BlobStore } from '@sitemaps/storage';

/** Render records of builds older than this are only history. */
const RENDER_RETENTION_MS = 7 * 24 * 3_600_000;

export class GarbageCollector {
  private readonly logger = new Logger('maintenance');

  constructor(
    private readonly deps: {
      store: BlobStore;
      builds: BuildRepository;
      idempotencyKeys: IdempotencyKeyRepository;
      people: PersonRepository;
      /** How long a released blob stays downloadable. */
      graceMs: number;
      idempotencyKeyTtlSeconds: number;
    },
  ) {}

  async collect(): Promise<{ blobs: number; renders: number; idempotencyKeys: number; accountTokens: number }> {
    const { store, builds, idempotencyKeys: keys, people } = this.deps;
    const blobs = await store.collectGarbage(this.deps.graceMs);
    const renders = await builds.deleteRendersBefore(new Date(Date.now() - RENDER_RETENTION_MS));
    const idempotencyKeys = await keys.deleteExpired(new Date(Date.now() - this.deps.idempotencyKeyTtlSeconds * 1000));
    const accountTokens = await people.deleteExpired();
    if (blobs || renders || idempotencyKeys || accountTokens) {
      this.logger.log(
        `collected ${blobs} blobs, ${renders} render records, ${idempotencyKeys} expired idempotency keys and ${accountTokens} expired sessions, invitations and resets`,
      );
    }
    return { blobs, renders, idempotencyKeys, accountTokens };
  }

  /** A deleted site's files, once its rows are gone (the store checks); a second run finds none. */
  async removeSiteFiles(siteId: string): Promise<{ files: number } | { skipped: string }> {
    const files = await this.deps.store.removeSite(siteId);
    if (files === null) {
      this.logger.warn(`site ${siteId} still exists: its files stay`);
      return { skipped: 'the site exists' };
    }
    if (files > 0) this.logger.log(`removed ${files} files of deleted site ${siteId}`);
    return { files };
  }
}
