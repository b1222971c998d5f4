import type { Queue } from 'bullmq';
import type { RedisConnection } from './connection';
import { createQueue } from './job-handlers';
import { JOB, jobId, QUEUE, verifySitePayload } from './queues';

/** Queues hostname checks: one per site waits or runs at a time, however often it is asked for. */
export class VerificationProducer {
  constructor(private readonly queue: Queue) {}

  static queue(connection: RedisConnection, prefix: string): Queue {
    return createQueue(QUEUE.verification, connection, prefix);
  }

  /** `delayMs`: not before then; a check already waiting (or running) for the site stands instead. */
  async requestCheck(siteId: string, delayMs = 0): Promise<void> {
    const data = verifySitePayload.parse({ v: 1, siteId });
    // A check that fails to run (not one that finds no proof) is retried with the queue's backoff.
    await this.queue.add(JOB.verifySite, data, {
      deduplication: { id: jobId.verifySite(siteId) },
      ...(delayMs > 0 ? { delay: delayMs } : {}),
    });
  }

  /**
   * How long a check a tenant asks for must wait: none for the first ask in `intervalMs`, else
   * until that interval ends. Each check costs DNS queries and fetches at the claimed host, which
   * may not be the tenant's: asking ten times in a row makes two checks, not ten.
   */
  async askedCheckDelay(siteId: string, intervalMs: number): Promise<number> {
    if (intervalMs <= 0) return 0;
    const client = (await this.queue.client) as unknown as RedisConnection;
    const key = `${this.queue.opts.prefix ?? 'bull'}:${QUEUE.verification}:asked:${siteId}`;
    if ((await client.set(key, '1', 'PX', intervalMs, 'NX')) === 'OK') return 0;
    return Math.max(0, await client.pttl(key));
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
