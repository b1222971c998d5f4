import { describe, expect, it } from 'vitest';
import { afterCheck, retryDelay, type VerificationState } from './site-verification';

const timing = { retryMs: 60_000, recheckMs: 24 * 3_600_000, graceMs: 72 * 3_600_000 };
const at = (iso: string) => new Date(iso);
const pending: VerificationState = { status: 'pending', failures: 0, failingSince: null, verifiedAt: null };
const missing = { proven: false, code: 'PROOF_NOT_FOUND', message: 'no TXT record, no file' } as const;

describe('retryDelay', () => {
  it('doubles from retryMs and stops at the daily re-check', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, timing))).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(retryDelay(40, timing)).toBe(timing.recheckMs);
  });
});

describe('afterCheck', () => {
  it('verifies a pending site on proof, announces it once, and re-checks it daily', () => {
    const now = at('2026-01-01T00:00:00Z');
    const verified = afterCheck({ ...pending, failures: 3 }, { proven: true, method: 'dns' }, now, timing);
    expect(verified).toMatchObject({
      status: 'verified',
      failures: 0,
      verifiedAt: now,
      errorCode: null,
      event: 'site.verified',
    });
    expect(verified.dueAt).toEqual(at('2026-01-02T00:00:00Z'));
    const again = afterCheck(verified, { proven: true, method: 'http' }, at('2026-01-02T00:00:00Z'), timing);
    expect(again).toMatchObject({ status: 'verified', verifiedAt: now, event: null });
  });

  it('backs a pending site off exponentially while its proof is missing', () => {
    const now = at('2026-01-01T00:00:00Z');
    const first = afterCheck(pending, missing, now, timing);
    const second = afterCheck(first, missing, now, timing);
    expect(first).toMatchObject({ status: 'pending', failures: 1, errorCode: 'PROOF_NOT_FOUND', event: null });
    expect(first.dueAt!.getTime() - now.getTime()).toBe(60_000);
    expect(second.dueAt!.getTime() - now.getTime()).toBe(120_000);
  });

  it('keeps a verified site through the grace period, then takes verification away and says so', () => {
    const verified: VerificationState = {
      status: 'verified',
      failures: 0,
      failingSince: null,
      verifiedAt: at('2025-12-01T00:00:00Z'),
    };
    const firstMiss = afterCheck(verified, missing, at('2026-01-01T00:00:00Z'), timing);
    expect(firstMiss).toMatchObject({
      status: 'verified',
      failingSince: at('2026-01-01T00:00:00Z'),
      event: null,
      errorCode: 'PROOF_NOT_FOUND',
    });
    const stillWithin = afterCheck(firstMiss, missing, at('2026-01-03T23:59:59Z'), timing);
    expect(stillWithin).toMatchObject({ status: 'verified', failingSince: at('2026-01-01T00:00:00Z') });
    const lost = afterCheck(stillWithin, missing, at('2026-01-04T00:00:00Z'), timing);
    expect(lost).toMatchObject({
      status: 'pending',
      verifiedAt: null,
      errorCode: 'VERIFICATION_LOST',
      event: 'site.verification_lost',
    });
    // The proof back within the grace period: nothing was lost.
    const back = afterCheck(stillWithin, { proven: true, method: 'dns' }, at('2026-01-03T12:00:00Z'), timing);
    expect(back).toMatchObject({ status: 'verified', failingSince: null, failures: 0, event: null });
  });
});
