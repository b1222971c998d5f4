// When the next attempt of a delivery runs: when the receiver said (its `Retry-After`, in seconds or
// as an HTTP date, read by retryAfterMs), else BullMQ's exponential backoff with the queue's delay
// and jitter. BullMQ calls this for the queue's own backoff type (WEBHOOK_BACKOFF_TYPE) with the
// error the attempt threw, so the attempt passes the receiver's wish on in a RetryLaterError.
import { Backoffs, type BackoffOptions, type BackoffStrategy } from 'bullmq';

/** A failed attempt whose receiver asked for the next one no sooner than `delayMs` from now. */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = 'RetryLaterError';
  }
}

export const webhookBackoff: BackoffStrategy = (attemptsMade, _type, error, job) => {
  if (error instanceof RetryLaterError) return error.delayMs;
  const backoff = (job?.opts.backoff ?? {}) as Partial<BackoffOptions>;
  return Backoffs.builtinStrategies.exponential!(backoff.delay ?? 1_000, backoff.jitter ?? 0)(
    attemptsMade,
    'exponential',
  );
};
