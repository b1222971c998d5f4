import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain.errors';
import { admitWithinUrlQuota, assertSiteQuota, URL_QUOTA_ISSUE, urlQuotaExceeded } from './quota.rules';

const entries = [
  { index: 0, adds: false },
  { index: 1, adds: true },
  { index: 2, adds: true },
  { index: 3, adds: false },
  { index: 4, adds: true },
];

describe('admitWithinUrlQuota', () => {
  it('admits everything without a quota', () => {
    expect(admitWithinUrlQuota(entries, (e) => e.adds, null)).toEqual({ accepted: entries, over: [], added: 3 });
  });

  it('gives the room to new URLs in order; updates take none', () => {
    const result = admitWithinUrlQuota(entries, (e) => e.adds, { max: 10, stored: 9 });
    expect(result.accepted.map((e) => e.index)).toEqual([0, 1, 3]);
    expect(result.over.map((e) => e.index)).toEqual([2, 4]);
    expect(result.added).toBe(1);
  });

  it('admits updates when the tenant is over its quota (a lowered limit)', () => {
    const result = admitWithinUrlQuota(entries, (e) => e.adds, { max: 2, stored: 5 });
    expect(result.accepted.map((e) => e.index)).toEqual([0, 3]);
    expect(result.added).toBe(0);
  });
});

describe('urlQuotaExceeded', () => {
  it('is quota-kind QUOTA_URLS naming the entries past the limit, in index order', () => {
    const error = urlQuotaExceeded({ max: 5, stored: 3 }, 3, [7, 5]);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'quota', code: 'QUOTA_URLS' });
    expect(error.message).toContain('5 URLs');
    expect(error.details).toEqual([
      { index: 5, ...URL_QUOTA_ISSUE },
      { index: 7, ...URL_QUOTA_ISSUE },
    ]);
  });
});

describe('assertSiteQuota', () => {
  it('allows up to the limit and refuses with QUOTA_SITES beyond', () => {
    expect(() => assertSiteQuota(null, 1_000)).not.toThrow();
    expect(() => assertSiteQuota(2, 1)).not.toThrow();
    expect(() => assertSiteQuota(2, 2)).toThrow(expect.objectContaining({ code: 'QUOTA_SITES', kind: 'quota' }));
  });
});
