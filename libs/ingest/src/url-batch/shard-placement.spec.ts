import { describe, expect, it } from 'vitest';
import { planNewUrls } from '@sitemaps/domain';
import { leavingDeltas, placeWrites, type PlacedWrite } from './shard-placement';

const write = (overrides: Partial<PlacedWrite>): PlacedWrite => ({
  id: null,
  hash: Buffer.alloc(16),
  section: '',
  shardId: null,
  fragmentSize: 100,
  needsShard: true,
  previous: null,
  ...overrides,
});

describe('shard placement decisions', () => {
  it('takes a leaving URL out of its old shard and counts a re-rendered one by its size change', () => {
    const deltas = leavingDeltas([
      write({
        id: '1',
        fragmentSize: 150,
        needsShard: false,
        shardId: '7',
        previous: { shardId: '7', size: 100, leaves: false },
      }),
      write({ id: '2', section: 'news', previous: { shardId: '7', size: 80, leaves: true } }),
      write({
        id: '3',
        fragmentSize: 90,
        needsShard: false,
        shardId: '8',
        previous: { shardId: '8', size: 100, leaves: false },
      }),
      write({}),
    ]);
    expect([...deltas]).toEqual([
      ['7', { count: -1, bytes: 50 - 80 }],
      ['8', { count: 0, bytes: -10 }],
    ]);
  });

  it('places new URLs in the shards of the plan and adds one delta per shard', () => {
    const placing = [write({ fragmentSize: 10 }), write({ fragmentSize: 20 }), write({ fragmentSize: 30 })];
    // The last shard has room for one more URL; the plan opens a second for the rest.
    const plan = planNewUrls(
      [{ id: 41n, section: '', ordinal: 3, urlCount: 1, byteSize: 5 }],
      placing.map((w) => ({ section: w.section, size: w.fragmentSize })),
      { maxUrls: 2, maxBytes: 1_000 },
    );
    (plan.shards[1] as { id: bigint | null }).id = 42n;
    const deltas = new Map([['41', { count: 0, bytes: 3 }]]);
    placeWrites(placing, plan, deltas);
    expect(placing.map((w) => w.shardId)).toEqual(['41', '42', '42']);
    expect([...deltas]).toEqual([
      ['41', { count: 1, bytes: 13 }],
      ['42', { count: 2, bytes: 50 }],
    ]);
  });
});
