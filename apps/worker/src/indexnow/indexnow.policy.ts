// The numbers and shapes IndexNow submissions follow, shared by the drain and the submitter.
import { createHash } from 'node:crypto';

/** URLs per request, the protocol's limit. */
export const INDEXNOW_MAX_URLS = 10_000;

/** How long a publish waits before its drain, so URL writes stamped before it have committed. */
export const INDEXNOW_SETTLE_MS = 1_000;

/** 429s may last a while: ten attempts, one second doubling, wait about 8½ minutes in all. */
export const SUBMIT_ATTEMPTS = 10;
export const SUBMIT_BACKOFF_BASE_MS = 1_000;
export const INDEXNOW_BACKOFF = 'indexnow';
const MAX_DELAY_MS = 3_600_000;

/** A failure worth retrying; `retryAfterMs` when the endpoint said how long to wait. */
export class IndexNowRetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
    this.name = 'IndexNowRetryableError';
  }
}

/**
 * BullMQ backoff for INDEXNOW_BACKOFF jobs: the endpoint's Retry-After when it sent one (at least
 * `baseMs`, at most an hour), else exponential from `baseMs`.
 */
export function indexNowBackoff(baseMs: number) {
  return (attemptsMade: number, _type?: string, error?: Error): number => {
    const asked = error instanceof IndexNowRetryableError ? error.retryAfterMs : null;
    if (asked !== null) return Math.min(MAX_DELAY_MS, Math.max(asked, baseMs));
    return Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attemptsMade - 1));
  };
}

/** Seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Short stable name of an endpoint for job ids: survives reordering the configured list. */
export function endpointHash(endpoint: string): string {
  return createHash('sha256').update(endpoint).digest('hex').slice(0, 12);
}
