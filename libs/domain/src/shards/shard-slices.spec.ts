import { describe, expect, it } from 'vitest';
import { sliceBounds, slicesToRender, type SliceState } from './shard-slices';

describe('sliceBounds', () => {
  it('cuts a dense id span into ranges of about the slice size', () => {
    expect(sliceBounds('1', '10000', 4000)).toEqual(['3334', '6667']);
    expect(sliceBounds('101', '4100', 4000)).toEqual([]);
    expect(sliceBounds('5', '5', 4000)).toEqual([]);
    expect(sliceBounds('1', '50000')).toHaveLength(6);
  });
});

describe('slicesToRender', () => {
  const states = (...stamps: string[]): SliceState[] => stamps.map((stamp) => ({ urls: 100, stamp }));
  const base = { bounds: ['100', '200', '300'], head: '<urlset>', slices: states('a', 'b', 'c', 'd') };

  it('names the slices whose stamp or count moved', () => {
    expect(slicesToRender(base, { head: '<urlset>', slices: states('a', 'b', 'c', 'd') }, 100)).toEqual([]);
    expect(slicesToRender(base, { head: '<urlset>', slices: states('a', 'b2', 'c', 'd') }, 100)).toEqual([1]);
    const removed = [...states('a', 'b', 'c'), { urls: 99, stamp: 'd' }];
    expect(slicesToRender(base, { head: '<urlset>', slices: removed }, 100)).toEqual([3]);
  });

  it('re-renders the first slice when the head changed', () => {
    expect(slicesToRender(base, { head: '<urlset xmlns:image>', slices: states('a', 'b', 'c', 'd2') }, 100)).toEqual([
      0, 3,
    ]);
  });

  it('asks for a full render when the layouts differ, most slices changed or the last slice outgrew its share', () => {
    expect(slicesToRender(base, { head: '<urlset>', slices: states('a', 'b', 'c') }, 100)).toBeNull();
    expect(slicesToRender(base, { head: '<urlset>', slices: states('a', 'b2', 'c2', 'd2') }, 100)).toBeNull();
    const grown = [...states('a', 'b', 'c'), { urls: 201, stamp: 'd2' }];
    expect(slicesToRender(base, { head: '<urlset>', slices: grown }, 100)).toBeNull();
  });
});
