// Queues the removal of deleted sites' files: after the transaction that deleted the rows has
// committed (the store refuses while a site's row exists), one job per site under a deterministic
// id, so a retried deletion queues it once. Retried with the maintenance queue's backoff.
import type { Queue } from 'bullmq';
import { JOB, jobId, removeSiteFilesPayload } from './queues';

export class SiteFilesProducer {
  constructor(private readonly maintenance: Queue) {}

  async removeFilesOf(siteIds: readonly string[]): Promise<void> {
    if (siteIds.length === 0) return;
    await this.maintenance.addBulk(
      siteIds.map((siteId) => ({
        name: JOB.removeSiteFiles,
        data: removeSiteFilesPayload.parse({ v: 1, siteId }),
        opts: { jobId: jobId.removeSiteFiles(siteId) },
      })),
    );
  }
}
