import { describe, expect, it } from 'vitest';
import { endpointHash, IndexNowRetryableError, indexNowBackoff, parseRetryAfter } from './indexnow.policy';

describe('IndexNow retry policy', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-15T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 15 Jan 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 15 Jan 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('backs off exponentially, or as long as the endpoint asked within bounds', () => {
    const backoff = indexNowBackoff(1_000);
    expect([1, 2, 3, 10].map((attempts) => backoff(attempts, 'indexnow', new Error('ECONNRESET')))).toEqual([
      1_000, 2_000, 4_000, 512_000,
    ]);
    expect(backoff(30, 'indexnow')).toBe(3_600_000);
    expect(backoff(1, 'indexnow', new IndexNowRetryableError('429', 30_000))).toBe(30_000);
    expect(backoff(1, 'indexnow', new IndexNowRetryableError('429', 0))).toBe(1_000);
    expect(backoff(1, 'indexnow', new IndexNowRetryableError('429', 86_400_000))).toBe(3_600_000);
    expect(backoff(3, 'indexnow', new IndexNowRetryableError('503', null))).toBe(4_000);
  });

  it('names endpoints for job ids without characters BullMQ refuses', () => {
    const hash = endpointHash('https://api.indexnow.org/indexnow');
    expect(hash).toMatch(/^[0-9a-f]{12}$/);
    expect(endpointHash('https://api.indexnow.org/indexnow')).toBe(hash);
    expect(endpointHash('https://www.bing.com/indexnow')).not.toBe(hash);
  });
});
