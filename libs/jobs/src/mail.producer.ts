// Queues invitation and password-reset emails: the API stores the row, then names it here; the
// worker mints the link's token and sends. One job per row (its id is the job's).
import type { Queue } from 'bullmq';
import type { RedisConnection } from './connection';
import { createQueue } from './job-handlers';
import { JOB, jobId, mailPayload, QUEUE } from './queues';

export interface MailRetryPolicy {
  /** Attempts per email, the first included. */
  attempts: number;
  /** Delay before the first retry; each further one doubles it. */
  backoffMs: number;
}

export class MailProducer {
  constructor(private readonly queue: Queue) {}

  static queue(connection: RedisConnection, prefix: string, retry: MailRetryPolicy): Queue {
    return createQueue(QUEUE.mail, connection, prefix, {
      attempts: retry.attempts,
      backoff: { type: 'exponential', delay: retry.backoffMs, jitter: 0.2 },
    });
  }

  async invitation(invitationId: string): Promise<void> {
    await this.queue.add(JOB.mailInvitation, mailPayload.parse({ v: 1, kind: 'invitation', invitationId }), {
      jobId: jobId.mailInvitation(invitationId),
    });
  }

  async passwordReset(resetId: string): Promise<void> {
    await this.queue.add(JOB.mailPasswordReset, mailPayload.parse({ v: 1, kind: 'password-reset', resetId }), {
      jobId: jobId.mailPasswordReset(resetId),
    });
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
