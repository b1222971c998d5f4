// A shard's file is gzipped as slices: consecutive id ranges of its URLs, each deflated on its own
// (libs/sitemap-xml's gzipUrlsetSlices). A change re-renders only the slices whose URLs changed and
// copies the others' bytes from the previous file. Which slices those are is decided here, from
// what the previous render recorded of each slice and what the shard holds now.

/** URLs per slice when a shard is sliced afresh: a one-URL change re-renders about this many. */
export const SLICE_URLS = 8_000;

/**
 * What a render knows of one slice's URLs, read in the render's snapshot. `stamp` changes with
 * any row of the slice: a URL added, removed, moved in or out, or written (every write makes a new
 * row version; see ShardRepository.slicedHead).
 */
export interface SliceState {
  urls: number;
  stamp: string;
}

/**
 * Where a shard's id space is cut: slice k holds ids from `bounds[k - 1]` (inclusive) to
 * `bounds[k]` (exclusive), the first from the lowest id and the last to the highest, so a URL
 * added with a new id falls in the last slice. Empty: one slice.
 */
export type SliceBounds = readonly string[];

/** Cuts the id span `first..last` into ranges of about `sliceUrls` ids each (ids in a shard are dense). */
export function sliceBounds(first: string, last: string, sliceUrls = SLICE_URLS): string[] {
  const low = BigInt(first);
  const span = BigInt(last) - low + 1n;
  const count = span <= 0n ? 1n : (span + BigInt(sliceUrls) - 1n) / BigInt(sliceUrls);
  return Array.from({ length: Number(count) - 1 }, (_, k) => String(low + (span * BigInt(k + 1)) / count));
}

/** The previous render of a shard as a splice needs it. */
export interface SlicedBase {
  bounds: SliceBounds;
  /** The urlset's opening tag in its first slice (namespaces, stylesheet). */
  head: string;
  slices: readonly SliceState[];
}

/**
 * The slices to re-render to turn `base` into the shard as it is now, or null when a full render
 * is the better (or the only) way: the layouts do not line up, most slices changed, or the last
 * slice has grown past twice a slice's share (URLs appended since: a fresh cut spreads them).
 */
export function slicesToRender(
  base: SlicedBase,
  now: { head: string; slices: readonly SliceState[] },
  sliceUrls = SLICE_URLS,
): number[] | null {
  if (base.slices.length !== now.slices.length || base.slices.length !== base.bounds.length + 1) return null;
  const changed = now.slices.flatMap((slice, index) => {
    const before = base.slices[index];
    const headMoved = index === 0 && base.head !== now.head;
    return headMoved || !before || before.stamp !== slice.stamp || before.urls !== slice.urls ? [index] : [];
  });
  if (changed.length * 2 > now.slices.length && now.slices.length > 1) return null;
  if ((now.slices.at(-1)?.urls ?? 0) > 2 * sliceUrls) return null;
  return changed;
}
