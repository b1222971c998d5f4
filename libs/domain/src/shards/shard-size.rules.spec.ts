import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain.errors';
import { planCompaction } from './shard-compaction';
import { planNewUrls } from './shard-planner';
import { siteShardLimits, validateShardSizes } from './shard-size.rules';

describe('shard sizes', () => {
  it('fills new shards up to the site size, a section over it, news never past 1,000', () => {
    const limits = siteShardLimits({ shardSize: 1_000, sectionShardSizes: { blog: 10 } });
    expect(limits('').maxUrls).toBe(1_000);
    expect(limits('blog').maxUrls).toBe(10);
    expect(siteShardLimits({ shardSize: 5_000, sectionShardSizes: {} })('news').maxUrls).toBe(1_000);
    expect(siteShardLimits(undefined)('').maxUrls).toBe(50_000);
    const plan = planNewUrls(
      [{ id: 1n, section: 'blog', ordinal: 1, urlCount: 8, byteSize: 800 }],
      Array.from({ length: 5 }, () => ({ section: 'blog', size: 100 })),
      limits,
    );
    expect(plan.assignments).toEqual([0, 0, 1, 1, 1]);
  });

  it('a smaller size later leaves full shards as they are: new URLs start a new one', () => {
    const plan = planNewUrls(
      [{ id: 7n, section: '', ordinal: 3, urlCount: 900, byteSize: 90_000 }],
      [{ section: '', size: 100 }],
      siteShardLimits({ shardSize: 500, sectionShardSizes: {} }),
    );
    expect(plan.shards.map((shard) => [shard.ordinal, shard.urlCount])).toEqual([
      [3, 900],
      [4, 1],
    ]);
  });

  it('compaction merges no shards past the site size', () => {
    const shards = [
      { id: '1', section: '', ordinal: 1, urlCount: 300, byteSize: 1 },
      { id: '2', section: '', ordinal: 2, urlCount: 300, byteSize: 1 },
    ];
    expect(planCompaction(shards, siteShardLimits({ shardSize: 500, sectionShardSizes: {} }))).toEqual([]);
    expect(planCompaction(shards, siteShardLimits({ shardSize: 2_000, sectionShardSizes: {} }))).toHaveLength(1);
  });

  it('refuses sizes outside 1-50,000, naming the field', () => {
    expect(validateShardSizes({ shardSize: 1_000, sectionShardSizes: { '': 10 } })).toEqual({
      shardSize: 1_000,
      sectionShardSizes: { '': 10 },
    });
    for (const input of [
      { shardSize: 0 },
      { shardSize: 50_001 },
      { sectionShardSizes: { blog: 1.5 } },
      { sectionShardSizes: { 'Bad!': 5 } },
    ]) {
      expect(() => validateShardSizes(input)).toThrow(DomainError);
    }
  });
});
