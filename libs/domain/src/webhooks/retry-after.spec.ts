import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from './retry-after';

const now = new Date('2026-11-26T04:00:00.000Z');

describe('retryAfterMs', () => {
  it('reads delay-seconds', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date, in the past meaning now', () => {
    expect(retryAfterMs('Thu, 26 Nov 2026 04:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Thursday, 26-Nov-26 04:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Wed, 25 Nov 2026 04:00:00 GMT', now)).toBe(0);
  });

  it('caps what it honours at a day', () => {
    expect(retryAfterMs('999999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('Fri, 01 Jan 2027 00:00:00 GMT', now)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('ignores what is absent or malformed', () => {
    for (const value of [undefined, null, '', '-5', '1.5', 'soon', '2026-11-26T05:00:00Z', 'Someday'])
      expect(retryAfterMs(value, now), String(value)).toBeUndefined();
  });
});
