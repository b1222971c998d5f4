// Wires the indexnow queue: drain jobs (one per publish) and submit jobs (one per batch and
// endpoint, retried with the IndexNow backoff).
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { drainIndexNowPayload, JOB, QUEUE, submitIndexNowPayload, type SubmitIndexNowPayload } from '@sitemaps/jobs';
import { PlatformMetrics } from '@sitemaps/observability';
import { JobWorkers } from '../job-workers';
import { IndexNowDrainer } from './indexnow.drainer';
import { IndexNowSubmitter } from './indexnow.submitter';
import { indexNowBackoff, SUBMIT_BACKOFF_BASE_MS } from './indexnow.policy';

@Injectable()
export class IndexNowProcessors implements OnModuleInit {
  constructor(
    private readonly workers: JobWorkers,
    private readonly drainer: IndexNowDrainer,
    private readonly submitter: IndexNowSubmitter,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
  ) {}

  onModuleInit(): void {
    // Both job kinds share the queue; the job name says which payload to expect. Submit first:
    // the drain schema would also accept (and strip) a submit payload.
    const payload = z.union([submitIndexNowPayload, drainIndexNowPayload]);
    this.workers.serve(
      QUEUE.indexnow,
      payload,
      (data, job) =>
        job.name === JOB.submitIndexNow
          ? this.submit(submitIndexNowPayload.parse(data), job.attemptsMade + 1)
          : this.drainer.drain(drainIndexNowPayload.parse(data)),
      // BullMQ asks this only for backoff types it does not know: here, INDEXNOW_BACKOFF.
      { settings: { backoffStrategy: indexNowBackoff(SUBMIT_BACKOFF_BASE_MS) } },
    );
  }

  /** Counted by outcome: accepted (2xx), retry (no answer, 408, 429, 5xx), refused (any other answer). */
  private async submit(payload: SubmitIndexNowPayload, attempt: number) {
    try {
      const result = await this.submitter.submit(payload, attempt);
      if (result) this.metrics.indexNowSubmissions.inc({ outcome: 'accepted' });
      return result;
    } catch (error) {
      this.metrics.indexNowSubmissions.inc({ outcome: error instanceof UnrecoverableError ? 'refused' : 'retry' });
      throw error;
    }
  }
}
