import { crc32, gunzipSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Namespace, urlsetOpen, URLSET_CLOSE } from './namespaces';
import { gzipUrlsetSlices } from './urlset-slices.writer';
import { crc32Combine, gzipUrlsetParts, gzipUrlsetStream, urlsetFits } from './urlset-stream.writer';
import { assembleUrlset, type FileLimits } from './urlset.writer';

async function* blocks(...parts: string[]) {
  for (const part of parts) yield Buffer.from(part);
}

describe('gzipUrlsetStream', () => {
  const a = '<url><loc>https://a.com/1</loc></url>';
  const b = '<url><loc>https://a.com/ü</loc></url>';
  const bytes = Buffer.byteLength(a + b);

  it('wraps the streamed body in the header for its namespaces and the footer', async () => {
    const { gzip, byteSize } = await gzipUrlsetStream(blocks(a, b), { urls: 2, bytes, mask: Namespace.IMAGE });
    const xml = gunzipSync(gzip).toString();
    expect(xml).toBe(`${urlsetOpen(Namespace.IMAGE)}${a}${b}${URLSET_CLOSE}`);
    expect(byteSize).toBe(Buffer.byteLength(xml));
  });

  it('enforces the limits before writing and the stated length after', async () => {
    await expect(gzipUrlsetStream(blocks(a), { urls: 50_001, bytes, mask: 0 })).rejects.toMatchObject({
      code: 'FILE_URL_LIMIT',
    });
    await expect(gzipUrlsetStream(blocks(a), { urls: 1, bytes: 52_428_800, mask: 0 })).rejects.toMatchObject({
      code: 'FILE_BYTE_LIMIT',
    });
    await expect(gzipUrlsetStream(blocks(a), { urls: 2, bytes, mask: 0 })).rejects.toMatchObject({
      code: 'FRAGMENT_BYTES_MISMATCH',
    });
    await expect(gzipUrlsetStream(blocks(), { urls: 0, bytes: 0, mask: 0 })).rejects.toMatchObject({
      code: 'EMPTY_FILE',
    });
  });
});

describe('gzipUrlsetParts', () => {
  const url = (i: number) => `<url><loc>https://a.com/${i}</loc></url>`;
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => url(from + k));

  it('joins separately deflated parts into one gzip member holding the whole file', async () => {
    const [first, second, third] = [range(0, 3000), range(3000, 3001), range(3001, 5000)];
    const bytes = Buffer.byteLength([...first, ...second, ...third].join(''));
    const meta = { urls: 5000, bytes, mask: 0 };
    const split = await gzipUrlsetParts([blocks(...first), blocks(...second), blocks(...third)], meta);
    const single = await gzipUrlsetStream(blocks(...first, ...second, ...third), meta);
    expect(gunzipSync(split.gzip).toString()).toBe(gunzipSync(single.gzip).toString());
    expect(split.byteSize).toBe(single.byteSize);
    // One member: a decoder that stops after the first member (as some HTTP clients do) reads it all.
    const inflated = inflateRawSync(split.gzip.subarray(10, split.gzip.length - 8));
    expect(inflated.length).toBe(split.byteSize);
    expect(split.gzip.readUInt32LE(split.gzip.length - 8)).toBe(crc32(inflated));
  });

  it('takes an empty part and checks the stated length over all parts', async () => {
    const body = range(0, 10);
    const bytes = Buffer.byteLength(body.join(''));
    const { gzip } = await gzipUrlsetParts([blocks(...body), blocks()], { urls: 10, bytes, mask: 0 });
    expect(gunzipSync(gzip).toString()).toBe(`${urlsetOpen(0)}${body.join('')}${URLSET_CLOSE}`);
    await expect(
      gzipUrlsetParts([blocks(...body), blocks(url(99))], { urls: 10, bytes, mask: 0 }),
    ).rejects.toMatchObject({ code: 'FRAGMENT_BYTES_MISMATCH' });
  });

  it('combines CRC-32s as zlib does', () => {
    const a = Buffer.from('sitemap ');
    const b = Buffer.from('ü'.repeat(1000));
    expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
    expect(crc32Combine(crc32(a), 0, 0)).toBe(crc32(a));
  });
});

describe('the file limits, one rule for every urlset writer', () => {
  const urls = ['<url><loc>https://a.com/1</loc></url>', '<url><loc>https://a.com/ü</loc></url>'];
  const bytes = Buffer.byteLength(urls.join(''));
  const meta = { urls: 2, bytes, mask: Namespace.IMAGE };
  const stylesheet = '../sitemap.xsl';
  // Exactly the file: the styled head (counted once, in bytes), the body and the close.
  const exact = Buffer.byteLength(urlsetOpen(Namespace.IMAGE, stylesheet)) + bytes + URLSET_CLOSE.length;
  type Opts = FileLimits & { stylesheet: string };
  const writers: Record<string, (opts: Opts) => Promise<unknown>> = {
    gzipUrlsetStream: (opts) => gzipUrlsetStream(blocks(...urls), meta, opts),
    gzipUrlsetParts: (opts) => gzipUrlsetParts([blocks(urls[0]!), blocks(urls[1]!)], meta, opts),
    gzipUrlsetSlices: (opts) => gzipUrlsetSlices([[blocks(urls[0]!)], [blocks(urls[1]!)]], meta, opts),
    assembleUrlset: async (opts) =>
      assembleUrlset(
        urls.map((xml) => ({ xml, bytes: Buffer.byteLength(xml), mask: Namespace.IMAGE })),
        opts,
      ),
  };

  it.each(Object.keys(writers))('%s writes a file at both limits and refuses one past either', async (name) => {
    const write = writers[name]!;
    const limits = { maxUrls: 2, maxBytes: exact, stylesheet };
    await expect(write(limits)).resolves.toBeDefined();
    expect(urlsetFits(meta, limits)).toBe(true);
    for (const [past, code] of [
      [{ ...limits, maxBytes: exact - 1 }, 'FILE_BYTE_LIMIT'],
      [{ ...limits, maxUrls: 1 }, 'FILE_URL_LIMIT'],
    ] as const) {
      await expect(write(past)).rejects.toMatchObject({ code });
      expect(urlsetFits(meta, past)).toBe(false);
    }
  });

  it('holds an empty urlset to be no file at all', () => {
    expect(urlsetFits({ urls: 0, bytes: 0, mask: 0 }, {})).toBe(false);
  });
});
