// Wires the indexnow queue: drain jobs (one per publish) and submit jobs (one per batch and
// endpoint, retried with the IndexNow backoff).
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { z } from 'zod';
import { drainIndexNowPayload, JOB, QUEUE, submitIndexNowPayload } from '@sitemaps/jobs';
import { JobWorkers } from '../job-workers';
import { IndexNowDrainer } from './indexnow-drainer';
import { IndexNowSubmitter } from './indexnow-submitter';
import { indexNowBackoff, SUBMIT_BACKOFF_BASE_MS } from './indexnow.policy';

@Injectable()
export class IndexNowProcessors implements OnModuleInit {
  constructor(
    private readonly workers: JobWorkers,
    private readonly drainer: IndexNowDrainer,
    private readonly submitter: IndexNowSubmitter,
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
          ? this.submitter.submit(submitIndexNowPayload.parse(data), job.attemptsMade + 1)
          : this.drainer.drain(drainIndexNowPayload.parse(data)),
      // BullMQ asks this only for backoff types it does not know: here, INDEXNOW_BACKOFF.
      { settings: { backoffStrategy: indexNowBackoff(SUBMIT_BACKOFF_BASE_MS) } },
    );
  }
}
