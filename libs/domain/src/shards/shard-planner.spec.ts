import { describe, expect, it } from 'vitest';
import { DEFAULT_SHARD_LIMITS, limitsForSection, planNewUrls, type ShardFill } from './shard-planner';

const limits = { maxUrls: 3, maxBytes: 100 };

describe('planNewUrls', () => {
  it('fills the last shard of a section, then opens the next ordinal', () => {
    const last: ShardFill[] = [{ id: 7n, section: '', ordinal: 2, urlCount: 2, byteSize: 20 }];
    const plan = planNewUrls(
      last,
      [10, 10, 10, 10].map((size) => ({ section: '', size })),
      limits,
    );
    expect(plan.assignments).toEqual([0, 1, 1, 1]);
    expect(plan.shards.map((s) => [s.id, s.ordinal, s.urlCount])).toEqual([
      [7n, 2, 3],
      [null, 3, 3],
    ]);
  });

  it('splits on bytes before count, and never leaves a URL without a shard', () => {
    const plan = planNewUrls(
      [],
      [60, 60, 30, 200].map((size) => ({ section: 'blog', size })),
      limits,
    );
    expect(plan.assignments).toEqual([0, 1, 1, 2]);
    expect(plan.shards.map((s) => s.ordinal)).toEqual([1, 2, 3]);
    // A single fragment larger than the limit still gets a shard of its own (the writer refuses it).
    expect(plan.shards[2]?.byteSize).toBe(200);
  });

  it('keeps sections apart, each with its own ordinals', () => {
    const plan = planNewUrls(
      [{ id: 1n, section: 'a', ordinal: 4, urlCount: 0, byteSize: 0 }],
      [
        { section: 'a', size: 1 },
        { section: 'b', size: 1 },
        { section: 'a', size: 1 },
      ],
      limits,
    );
    expect(plan.assignments).toEqual([0, 1, 0]);
    expect(plan.shards.map((s) => `${s.section}-${s.ordinal}`)).toEqual(['a-4', 'b-1']);
  });

  it('takes exactly 50,000 URLs into one shard and the 50,001st into a second', () => {
    const incoming = Array.from({ length: 50_001 }, () => ({ section: '', size: 100 }));
    const plan = planNewUrls([], incoming);
    expect(plan.shards.map((s) => s.urlCount)).toEqual([50_000, 1]);
  });
});

describe('limitsForSection', () => {
  it('caps news shards at 1,000 URLs and leaves other sections at the given limits', () => {
    expect(limitsForSection('news')).toEqual({ maxUrls: 1_000, maxBytes: DEFAULT_SHARD_LIMITS.maxBytes });
    expect(limitsForSection('')).toBe(DEFAULT_SHARD_LIMITS);
    expect(limitsForSection('news', { maxUrls: 3, maxBytes: 100 })).toEqual({ maxUrls: 3, maxBytes: 100 });
    expect(limitsForSection('blog', { maxUrls: 3, maxBytes: 100 })).toEqual({ maxUrls: 3, maxBytes: 100 });
  });
});
