// After a publish: the site's URLs added, updated or deleted (deletes stamp updated_at too) in the
// window (cursor, publish moment], grouped by host, cut into batches of at most 10,000, one
// submit job per batch and endpoint. The cursor moves only once every batch is queued; the
// batch jobs retry on their own. With no endpoint, the cursor moves without reading the URLs.
import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { isAnnounceableHost } from '@sitemaps/domain';
import type { IndexNowBatch, IndexNowRepository } from '@sitemaps/data';
import {
  createQueue,
  DEFAULT_JOB_OPTIONS,
  JOB,
  jobId,
  QUEUE,
  type DrainIndexNowPayload,
  type SubmitIndexNowPayload,
  type RedisConnection,
} from '@sitemaps/jobs';
import {
  endpointHash,
  INDEXNOW_BACKOFF,
  INDEXNOW_MAX_URLS,
  INDEXNOW_SETTLE_MS,
  SUBMIT_ATTEMPTS,
  SUBMIT_BACKOFF_BASE_MS,
} from './indexnow.policy';

export interface DrainResult {
  batches: number;
  urls: number;
}

export class IndexNowDrainer implements BeforeApplicationShutdown {
  constructor(
    private readonly indexNow: IndexNowRepository,
    private readonly queue: Queue,
    private readonly endpoints: readonly string[],
  ) {}

  static queue(connection: RedisConnection, prefix: string): Queue {
    return createQueue(QUEUE.indexnow, connection, prefix);
  }

  /**
   * The module makes the queue for this class alone, so this class closes it: after the workers
   * have stopped (a publish finishing may still enqueue), before the Redis connection goes.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }

  /** Called once a manifest switch has committed: fixes the window in the job, which runs shortly after. */
  async enqueue(siteId: string, buildId: string): Promise<void> {
    const window = await this.indexNow.window(buildId);
    if (!window?.until) return;
    const data: DrainIndexNowPayload = {
      v: 1,
      siteId,
      buildId,
      from: window.cursor?.toISOString() ?? null,
      until: window.until.toISOString(),
    };
    await this.queue.add(JOB.drainIndexNow, data, { jobId: jobId.drainIndexNow(buildId), delay: INDEXNOW_SETTLE_MS });
  }

  async drain(payload: DrainIndexNowPayload): Promise<DrainResult> {
    // With nowhere to submit (`INDEXNOW_ENDPOINTS=off`) the window's URLs are not read, only
    // passed over: turning IndexNow on later announces changes from then on, not the backlog
    // made while it was off (as before, when the read ran and its batches went nowhere).
    if (this.endpoints.length === 0) {
      await this.indexNow.passOver(payload.siteId, payload.buildId, new Date(payload.until));
      return { batches: 0, urls: 0 };
    }
    return this.indexNow.drain(payload.siteId, async (drain) => {
      const cursor = await drain.cursor();
      if (cursor === undefined) return { batches: 0, urls: 0 }; // deleted with its site
      const until = new Date(payload.until);
      // A later publish's drain that ran first has covered part or all of this window.
      const from = later(payload.from ? new Date(payload.from) : null, cursor);
      const batches =
        from && from >= until
          ? []
          : (await drain.batches({ from, until, batchSize: INDEXNOW_MAX_URLS })).filter((batch) =>
              isAnnounceableHost(batch.host),
            );
      if (batches.length > 0) await this.queueBatches(payload, from, batches);
      await drain.advanceCursor(until);
      await drain.markDrained(payload.buildId);
      return { batches: batches.length, urls: batches.reduce((sum, batch) => sum + batch.urlCount, 0) };
    });
  }

  /**
   * One MULTI: every batch is queued or none. A retry after a crash derives the same batches from
   * the same window, and their job ids make re-adding them a no-op.
   */
  private async queueBatches(
    payload: DrainIndexNowPayload,
    from: Date | null,
    batches: IndexNowBatch[],
  ): Promise<void> {
    const opts = {
      ...DEFAULT_JOB_OPTIONS,
      attempts: SUBMIT_ATTEMPTS,
      backoff: { type: INDEXNOW_BACKOFF, delay: SUBMIT_BACKOFF_BASE_MS },
    };
    const jobs = batches.flatMap((batch, index) =>
      this.endpoints.map((endpoint) => {
        const data: SubmitIndexNowPayload = {
          v: 1,
          siteId: payload.siteId,
          buildId: payload.buildId,
          batch: index + 1,
          endpoint,
          host: batch.host,
          from: from?.toISOString() ?? null,
          until: payload.until,
          firstId: batch.firstId,
          lastId: batch.lastId,
        };
        return {
          name: JOB.submitIndexNow,
          data,
          opts: { ...opts, jobId: jobId.submitIndexNow(payload.buildId, index + 1, endpointHash(endpoint)) },
        };
      }),
    );
    await this.queue.addBulk(jobs);
  }
}

function later(a: Date | null, b: Date | null): Date | null {
  if (!a || !b) return a ?? b;
  return a > b ? a : b;
}
