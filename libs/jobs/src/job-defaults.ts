import type { DefaultJobOptions } from 'bullmq';

/** Retries with backoff; completed jobs trimmed; failed jobs kept for a week for inspection. */
export const DEFAULT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 3_600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3_600 },
};
