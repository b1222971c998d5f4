import { describe, expect, it } from 'vitest';
import { planCompaction, type ShardSize } from './shard-compaction';

const limits = { maxUrls: 10, maxBytes: 1_000 };
const shard = (id: string, urlCount: number, extra: Partial<ShardSize> = {}): ShardSize => ({
  id,
  section: 'default',
  ordinal: Number(id),
  urlCount,
  byteSize: urlCount * 10,
  ...extra,
});

describe('planCompaction', () => {
  it('merges an under-filled neighbour into the shard before it while the result fits', () => {
    expect(planCompaction([shard('1', 10), shard('2', 2), shard('3', 3), shard('4', 10)], limits)).toEqual([
      { into: '2', from: '3', urlCount: 3, byteSize: 30 },
    ]);
  });

  it('keeps merging into the grown shard, and starts again from a shard that does not fit', () => {
    expect(planCompaction([shard('1', 2), shard('2', 3), shard('3', 4), shard('4', 3)], limits)).toEqual([
      { into: '1', from: '2', urlCount: 3, byteSize: 30 },
      { into: '1', from: '3', urlCount: 4, byteSize: 40 },
    ]);
  });

  it('leaves two shards of at least half alone, even when they would fit together', () => {
    expect(planCompaction([shard('1', 5), shard('2', 5)], limits)).toEqual([]);
  });

  it('never merges across sections, nor past the byte limit', () => {
    expect(planCompaction([shard('1', 2), shard('2', 2, { section: 'blog' })], limits)).toEqual([]);
    expect(planCompaction([shard('1', 2, { byteSize: 600 }), shard('2', 2, { byteSize: 600 })], limits)).toEqual([]);
  });

  it("uses a section's own limits: news files hold at most 1,000 URLs", () => {
    const news = (id: string, urlCount: number) => shard(id, urlCount, { section: 'news', byteSize: 0 });
    expect(planCompaction([news('1', 600), news('2', 450)])).toEqual([]);
    expect(planCompaction([news('1', 600), news('2', 400)])).toEqual([
      { into: '1', from: '2', urlCount: 400, byteSize: 0 },
    ]);
  });
});
