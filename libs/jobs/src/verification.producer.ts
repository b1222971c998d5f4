import { Queue } from 'bullmq';
import type { RedisConnection } from './connection';
import { DEFAULT_JOB_OPTIONS } from './job-defaults';
import { JOB, jobId, QUEUE, verifySitePayload } from './queues';

/** Queues hostname checks: one per site waits or runs at a time, however often it is asked for. */
export class VerificationProducer {
  constructor(private readonly queue: Queue) {}

  static queue(connection: RedisConnection, prefix: string): Queue {
    return new Queue(QUEUE.verification, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
  }

  async requestCheck(siteId: string): Promise<void> {
    const data = verifySitePayload.parse({ v: 1, siteId });
    // A check that fails to run (not one that finds no proof) is retried with the queue's backoff.
    await this.queue.add(JOB.verifySite, data, { deduplication: { id: jobId.verifySite(siteId) } });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
