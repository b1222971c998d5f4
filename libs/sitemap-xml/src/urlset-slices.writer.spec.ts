import { crc32, gunzipSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Namespace, urlsetOpen } from './namespaces';
import { renderUrlFragment } from './url-fragment.writer';
import { assembleUrlset } from './urlset.writer';
import { gzipUrlsetSlices, spliceUrlsetSlices, type SlicedUrlset } from './urlset-slices.writer';
import { validateSitemapFile } from './validate/sitemap.validator';

/** A URL as a shard stores it: its fragment and the namespaces it uses. */
interface Row {
  xml: string;
  mask: number;
}

const row = (i: number, version = 0): Row => {
  const loc = `https://a.com/p/${i}`;
  const images = i % 7 === 0 ? [{ loc: `https://a.com/i/${i}.jpg` }] : undefined;
  return {
    xml: renderUrlFragment({ loc, lastmod: `2026-0${1 + (version % 9)}-01`, priority: 0.5, images }),
    mask: images ? Namespace.IMAGE : 0,
  };
};

async function* blocks(rows: readonly Row[]) {
  // Several rows per block, as the COPY reader yields them.
  for (let start = 0; start < rows.length; start += 50)
    yield Buffer.from(
      rows
        .slice(start, start + 50)
        .map((r) => r.xml)
        .join(''),
    );
}

const metaOf = (slices: readonly (readonly Row[])[]) => {
  const rows = slices.flat();
  return {
    urls: rows.length,
    bytes: rows.reduce((sum, r) => sum + Buffer.byteLength(r.xml), 0),
    mask: rows.reduce((mask, r) => mask | r.mask, 0),
  };
};

/** What a full render of the same URLs gives: the reference every splice must equal. */
const fullRender = (slices: readonly (readonly Row[])[]) =>
  assembleUrlset(slices.flat().map((r) => ({ xml: r.xml, bytes: Buffer.byteLength(r.xml), mask: r.mask })));

/** 5 slices of 400 URLs. */
const initial = (): Row[][] =>
  Array.from({ length: 5 }, (_, s) => Array.from({ length: 400 }, (_, k) => row(s * 400 + k)));

async function sliced(slices: readonly (readonly Row[])[]): Promise<SlicedUrlset & { head: string }> {
  const meta = metaOf(slices);
  // Two lanes, as two connections read them.
  const lanes = [slices.slice(0, 2), slices.slice(2)].map((lane) => lane.map((rows) => blocks(rows)));
  const file = await gzipUrlsetSlices(lanes, meta);
  return { ...file, head: urlsetOpen(meta.mask) };
}

/** Replaces the slices at `changed` by their new rows in `next`. */
function splice(base: SlicedUrlset & { head: string }, next: Row[][], changed: number[]) {
  return spliceUrlsetSlices(base, new Map(changed.map((index) => [index, blocks(next[index] as Row[])])), metaOf(next));
}

function expectReused(base: SlicedUrlset, next: SlicedUrlset, unchanged: number[]) {
  for (const index of unchanged) {
    const [a, b] = [base.slices[index], next.slices[index]];
    if (!a || !b) throw new Error(`no slice ${index}`);
    expect(
      next.gzip.subarray(b.offset, b.offset + b.size).equals(base.gzip.subarray(a.offset, a.offset + a.size)),
    ).toBe(true);
  }
}

/** One gzip member whose trailer agrees with its bytes (what `gunzip` alone would not check member by member). */
function expectOneMember(file: SlicedUrlset) {
  const inflated = inflateRawSync(file.gzip.subarray(10, file.gzip.length - 8));
  expect(inflated.length).toBe(file.byteSize);
  expect(file.gzip.readUInt32LE(file.gzip.length - 8)).toBe(crc32(inflated));
  expect(file.gzip.readUInt32LE(file.gzip.length - 4)).toBe(file.byteSize);
}

describe('gzipUrlsetSlices', () => {
  it('gzips the slices into one member holding exactly the full render, with their layout', async () => {
    const slices = initial();
    const file = await sliced(slices);
    expect(gunzipSync(file.gzip).equals(fullRender(slices))).toBe(true);
    expectOneMember(file);
    expect(file.slices).toHaveLength(5);
    let inflated = 0;
    for (const [index, slice] of file.slices.entries()) {
      // Each slice inflates on its own (an empty window): what a splice relies on.
      const part = inflateRawSync(file.gzip.subarray(slice.offset, slice.offset + slice.size), {
        finishFlush: 2, // Z_SYNC_FLUSH: every slice but the last ends without a final block
      });
      expect(part.length).toBe(slice.length);
      expect(crc32(part)).toBe(slice.crc);
      if (index > 0)
        expect(slice.offset).toBe((file.slices[index - 1]?.offset ?? 0) + (file.slices[index - 1]?.size ?? 0));
      inflated += part.length;
    }
    expect(inflated).toBe(file.byteSize);
  });
});

describe('spliceUrlsetSlices', () => {
  it.each([
    ['first', 0],
    ['middle', 2],
    ['last', 4],
  ])('re-deflates only the changed %s slice and equals a full render', async (_, changed) => {
    const base = await sliced(initial());
    const next = initial();
    const slice = next[changed] as Row[];
    slice[137] = row(changed * 400 + 137, 1);
    const spliced = await splice(base, next, [changed]);
    expect(gunzipSync(spliced.gzip).equals(fullRender(next))).toBe(true);
    expect(gunzipSync(spliced.gzip).equals(gunzipSync(base.gzip))).toBe(false);
    expectOneMember(spliced);
    expectReused(
      base,
      spliced,
      [0, 1, 2, 3, 4].filter((index) => index !== changed),
    );
    // And a splice of the splice: its layout is as good as a full render's.
    const again = initial();
    (again[changed] as Row[])[5] = row(changed * 400 + 5, 2);
    const twice = await splice({ ...spliced, head: base.head }, again, [changed]);
    expect(gunzipSync(twice.gzip).equals(fullRender(again))).toBe(true);
    expectOneMember(twice);
  });

  it('takes an added URL (a longer slice) and a removed one (a shorter one, or an emptied slice)', async () => {
    const base = await sliced(initial());
    const next = initial();
    next[4]?.push(row(2_000)); // appended: a new id lands in the last slice
    next[1]?.splice(10, 1); // removed from the second
    next[3] = []; // every URL of the fourth removed
    const spliced = await splice(base, next, [1, 3, 4]);
    expect(gunzipSync(spliced.gzip).equals(fullRender(next))).toBe(true);
    expectOneMember(spliced);
    expectReused(base, spliced, [0, 2]);
    expect((await validateSitemapFile('shard.xml', gunzipSync(spliced.gzip))).problems).toEqual([]);
  });

  it('re-renders the head with the first slice when the namespaces change', async () => {
    const plain = Array.from({ length: 3 }, (_, s) =>
      Array.from({ length: 100 }, (_, k) => ({
        ...row(s * 100 + k),
        mask: 0,
        xml: renderUrlFragment({ loc: `https://a.com/${s}/${k}` }),
      })),
    );
    const base = await sliced(plain);
    const next = plain.map((rows) => [...rows]);
    (next[2] as Row[])[0] = row(7); // brings in the image namespace
    await expect(splice(base, next, [2])).rejects.toThrow(/head changed/);
    const spliced = await splice(base, next, [0, 2]);
    expect(gunzipSync(spliced.gzip).equals(fullRender(next))).toBe(true);
    expect((await validateSitemapFile('shard.xml', gunzipSync(spliced.gzip))).problems).toEqual([]);
  });

  it('refuses a splice whose reused slices do not add up to the stated totals', async () => {
    const base = await sliced(initial());
    const next = initial();
    (next[1] as Row[])[3] = {
      xml: (next[1] as Row[])[3]?.xml.replace('</url>', '<priority>0.9</priority></url>') ?? '',
      mask: 0,
    };
    // The changed slice is not re-rendered: the stated bytes give it away.
    await expect(splice(base, next, [2])).rejects.toMatchObject({ code: 'FRAGMENT_BYTES_MISMATCH' });
    // A base that is not the file its layout describes.
    await expect(
      spliceUrlsetSlices({ ...base, gzip: base.gzip.subarray(0, base.gzip.length - 1) }, new Map(), metaOf(initial())),
    ).rejects.toThrow(/does not match/);
  });
});
