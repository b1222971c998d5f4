import { describe, expect, it } from 'vitest';
import { MAX_BYTES_PER_FILE, MAX_URLS_PER_FILE } from './limits';
import { ALL_NAMESPACES, Namespace, URLSET_CLOSE, urlsetOpen, urlsetOverheadBytes } from './namespaces';
import { SitemapXmlError } from './sitemap-xml.errors';
import type { SitemapUrl } from './sitemap-xml.types';
import { validateSitemaps } from './testing/validate-sitemap';
import { toUrlFragment, type UrlFragment } from './url-fragment.writer';
import { gunzipSync } from 'node:zlib';
import {
  UrlsetBuilder,
  assembleUrlset,
  gzippedUrlsetFiles,
  packFragments,
  renderUrlsetFiles,
  urlsetFiles,
} from './urlset.writer';
import { codeOf } from './testing/error-code';

const ORIGIN = 'https://shop.example.com';

function* plainUrls(count: number): Generator<SitemapUrl> {
  for (let i = 0; i < count; i++) yield { loc: `${ORIGIN}/p/${i}` };
}

/** ~42 KB fragments: a 2,000-character loc and twenty 2,000-character alternates. */
function* hugeUrls(count: number): Generator<SitemapUrl> {
  const tail = 'x'.repeat(1950);
  for (let i = 0; i < count; i++) {
    yield {
      loc: `${ORIGIN}/${i}/${tail}`,
      alternates: Array.from({ length: 20 }, (_, a) => ({
        hreflang: `x${a}`,
        href: `https://shop-${a}.example.com/${i}/${tail}`,
      })),
    };
  }
}

function countUrls(xml: Buffer): number {
  return xml.toString('latin1').split('<url>').length - 1;
}

describe('assembleUrlset', () => {
  const a = toUrlFragment({ loc: `${ORIGIN}/a` });
  const b = toUrlFragment({ loc: `${ORIGIN}/b`, alternates: [{ hreflang: 'en', href: `${ORIGIN}/b` }] });
  const c = toUrlFragment({ loc: `${ORIGIN}/ü`, images: [{ loc: 'https://cdn.example.com/ü.jpg' }] });

  it('joins header, fragments in order and footer, declaring only the namespaces used', () => {
    const xml = assembleUrlset([a, b]).toString('utf8');
    expect(xml).toBe(urlsetOpen(Namespace.XHTML) + a.xml + b.xml + URLSET_CLOSE);
    expect(xml).toContain('xmlns:xhtml=');
    expect(xml).not.toContain('xmlns:image=');
    expect(assembleUrlset([a]).toString()).toBe(urlsetOpen(0) + a.xml + URLSET_CLOSE);
  });

  it('takes stored fragments as strings or buffers', () => {
    const asBuffer: UrlFragment = { ...c, xml: Buffer.from(c.xml as string, 'utf8') };
    expect(assembleUrlset([a, asBuffer]).equals(assembleUrlset([a, c]))).toBe(true);
  });

  it('accepts exactly 50,000 fragments and refuses 50,001', () => {
    const fragments = Array.from({ length: MAX_URLS_PER_FILE + 1 }, () => a);
    expect(countUrls(assembleUrlset(fragments.slice(0, MAX_URLS_PER_FILE)))).toBe(MAX_URLS_PER_FILE);
    expect(codeOf(() => assembleUrlset(fragments))).toBe('FILE_URL_LIMIT');
  });

  it('refuses a file one byte over 52,428,800, header and footer included, and accepts it at the limit', () => {
    const overhead = urlsetOverheadBytes(0);
    const body = MAX_BYTES_PER_FILE - overhead;
    const fill = (bytes: number): UrlFragment => {
      const xml = `<url><loc>${ORIGIN}/${'x'.repeat(bytes - `<url><loc>${ORIGIN}/</loc></url>`.length)}</loc></url>`;
      return { xml, bytes: xml.length, mask: 0 };
    };
    const half = Math.floor(body / 2);
    const exact = assembleUrlset([fill(half), fill(body - half)]);
    expect(exact.length).toBe(MAX_BYTES_PER_FILE);
    const error = (() => {
      try {
        assembleUrlset([fill(half), fill(body - half + 1)]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SitemapXmlError);
    expect((error as SitemapXmlError).code).toBe('FILE_BYTE_LIMIT');
    expect((error as SitemapXmlError).details).toMatchObject({ bytes: MAX_BYTES_PER_FILE + 1 });
  });

  it('checks declared byte lengths against the real UTF-8 length', () => {
    expect(codeOf(() => assembleUrlset([{ ...c, bytes: (c.xml as string).length }]))).toBe('FRAGMENT_BYTES_MISMATCH');
    expect(codeOf(() => assembleUrlset([a, { ...b, bytes: b.bytes + 1 }]))).toBe('FRAGMENT_BYTES_MISMATCH');
    expect(codeOf(() => assembleUrlset([{ ...a, bytes: a.bytes - 1 }]))).toBe('FRAGMENT_BYTES_MISMATCH');
    expect(codeOf(() => assembleUrlset([{ ...a, bytes: Number.NaN }]))).toBe('FRAGMENT_BYTES_MISMATCH');
  });

  it('refuses an empty file, which the schema does not allow', () => {
    expect(codeOf(() => assembleUrlset([]))).toBe('EMPTY_FILE');
  });
});

describe('packFragments', () => {
  it('keeps exactly 50,000 in one file and makes two of 50,001', () => {
    expect(packFragments(new Array<number>(50_000).fill(100))).toEqual([
      { start: 0, end: 50_000, bytes: urlsetOverheadBytes(ALL_NAMESPACES) + 5_000_000 },
    ]);
    const two = packFragments(new Array<number>(50_001).fill(100));
    expect(two.map(({ start, end }) => [start, end])).toEqual([
      [0, 50_000],
      [50_000, 50_001],
    ]);
  });

  it('splits on bytes before 52,428,800 when fragments are large', () => {
    const sizes = new Array<number>(3_000).fill(42_000);
    const ranges = packFragments(sizes);
    const perFile = Math.floor((MAX_BYTES_PER_FILE - urlsetOverheadBytes(ALL_NAMESPACES)) / 42_000);
    expect(ranges.map((r) => r.end - r.start)).toEqual([perFile, perFile, 3_000 - 2 * perFile]);
    for (const range of ranges) expect(range.bytes).toBeLessThanOrEqual(MAX_BYTES_PER_FILE);
    expect(ranges[0]!.bytes + 42_000).toBeGreaterThan(MAX_BYTES_PER_FILE);
  });

  it('covers every fragment once, in order, for mixed sizes', () => {
    const sizes = Array.from({ length: 120_000 }, (_, i) => (i % 97 === 0 ? 900_000 : 200 + (i % 13) * 50));
    const ranges = packFragments(sizes);
    expect(ranges[0]!.start).toBe(0);
    expect(ranges.at(-1)!.end).toBe(sizes.length);
    ranges.forEach((range, i) => {
      if (i > 0) expect(range.start).toBe(ranges[i - 1]!.end);
      expect(range.end - range.start).toBeLessThanOrEqual(MAX_URLS_PER_FILE);
      const bytes = urlsetOverheadBytes() + sizes.slice(range.start, range.end).reduce((s, n) => s + n, 0);
      expect(range.bytes).toBe(bytes);
      expect(bytes).toBeLessThanOrEqual(MAX_BYTES_PER_FILE);
    });
  });

  it('honours smaller limits (a news sitemap holds 1,000 URLs)', () => {
    expect(packFragments(new Array<number>(2_500).fill(300), { maxUrls: 1_000 }).map((r) => r.end - r.start)).toEqual([
      1_000, 1_000, 500,
    ]);
  });

  it('refuses a fragment that cannot fit in any file', () => {
    expect(codeOf(() => packFragments([100, MAX_BYTES_PER_FILE]))).toBe('FRAGMENT_TOO_LARGE');
  });
});

describe('renderUrlsetFiles / urlsetFiles / UrlsetBuilder', () => {
  it('writes exactly 50,000 URLs as one valid file', async () => {
    const files = renderUrlsetFiles(plainUrls(50_000));
    expect(files).toHaveLength(1);
    expect(files[0]!.urls).toBe(50_000);
    expect(countUrls(files[0]!.xml)).toBe(50_000);
    const result = await validateSitemaps({ 'fifty-thousand.xml': files[0]!.xml });
    expect(result.ok, result.output).toBe(true);
  });

  it('writes 50,001 URLs as two files, the second holding the last URL', () => {
    const files = renderUrlsetFiles(plainUrls(50_001));
    expect(files.map((f) => f.urls)).toEqual([50_000, 1]);
    expect(files[1]!.xml.toString()).toBe(`${urlsetOpen(0)}<url><loc>${ORIGIN}/p/50000</loc></url>${URLSET_CLOSE}`);
  });

  it('splits long URLs with many alternates on bytes, each file at most 52,428,800 bytes and full', async () => {
    const total = 2_600;
    const fragmentBytes = Buffer.byteLength(toUrlFragment(hugeUrls(1).next().value).xml);
    const files = renderUrlsetFiles(hugeUrls(total));
    expect(files.length).toBe(3);
    expect(files.reduce((sum, f) => sum + f.urls, 0)).toBe(total);
    for (const file of files) {
      expect(file.xml.length).toBeLessThanOrEqual(MAX_BYTES_PER_FILE);
      expect(countUrls(file.xml)).toBe(file.urls);
    }
    // Full: one more fragment would have broken the byte limit.
    expect(files[0]!.xml.length + fragmentBytes).toBeGreaterThan(MAX_BYTES_PER_FILE);
    expect(files[0]!.urls).toBeLessThan(MAX_URLS_PER_FILE);
    // Order is kept across files.
    expect(files[1]!.xml.toString('latin1', 0, 4000)).toContain(`<loc>${ORIGIN}/${files[0]!.urls}/`);
    const result = await validateSitemaps({ 'huge.xml': files[0]!.xml });
    expect(result.ok, result.output).toBe(true);
  });

  it('uses the real header of each file when deciding where to split', () => {
    const plain = toUrlFragment({ loc: `${ORIGIN}/p/0` });
    const budget = plain.bytes * 3 + urlsetOverheadBytes(0);
    const files = renderUrlsetFiles(plainUrls(7), { maxBytes: budget });
    expect(files.map((f) => f.urls)).toEqual([3, 3, 1]);
    expect(files[0]!.xml.length).toBe(budget);
    // Three fragments fit with the plain header, but not if the third needs a namespace.
    const builder = new UrlsetBuilder({ maxBytes: budget });
    expect(builder.add(plain.xml, 0)).toBe(true);
    expect(builder.add(plain.xml, 0)).toBe(true);
    expect(builder.add(plain.xml, Namespace.IMAGE)).toBe(false);
    expect(builder.add(plain.xml, 0)).toBe(true);
    expect(builder.finish().length).toBe(budget);
  });

  it('yields one file at a time', () => {
    const iterator = urlsetFiles(plainUrls(120_000));
    const first = iterator.next();
    expect(first.done).toBe(false);
    expect(first.value?.urls).toBe(50_000);
  });

  it('refuses a single URL larger than a file', () => {
    const url: SitemapUrl = {
      loc: `${ORIGIN}/big`,
      images: Array.from({ length: 10 }, (_, i) => ({ loc: `https://cdn.example.com/${i}.jpg` })),
    };
    expect(codeOf(() => renderUrlsetFiles([url], { maxBytes: 500 }))).toBe('FRAGMENT_TOO_LARGE');
  });

  it('builds files from fragments streamed in, returning false when one does not fit', () => {
    const builder = new UrlsetBuilder({ maxUrls: 2 }, 16);
    const a = toUrlFragment({ loc: `${ORIGIN}/a` });
    const b = toUrlFragment({ loc: `${ORIGIN}/ü`, alternates: [{ hreflang: 'de', href: `${ORIGIN}/de` }] });
    expect(builder.add(a.xml, a.mask)).toBe(true);
    expect(builder.add(Buffer.from(b.xml as string), b.mask)).toBe(true);
    expect(builder.add(a.xml, a.mask)).toBe(false);
    expect(builder.bytes).toBe(urlsetOverheadBytes(Namespace.XHTML) + a.bytes + b.bytes);
    const file = builder.finish();
    expect(file.equals(assembleUrlset([a, b]))).toBe(true);
    expect(builder.urls).toBe(0);
    expect(codeOf(() => builder.finish())).toBe('EMPTY_FILE');
    expect(builder.add(a.xml, a.mask)).toBe(true);
    expect(builder.finish().equals(assembleUrlset([a]))).toBe(true);
  });

  it('gives every file its own memory', () => {
    const files = renderUrlsetFiles(plainUrls(120_000));
    const copies = files.map((f) => Buffer.from(f.xml));
    files.forEach((f, i) => expect(f.xml.equals(copies[i]!)).toBe(true));
    expect(files[0]!.xml.toString('latin1', 0, 60)).toBe(urlsetOpen(0).slice(0, 60));
  });

  it('gzips files straight from the builder, the same bytes as finish() would give', async () => {
    const urls = [...plainUrls(120_000)];
    const plain = renderUrlsetFiles(urls);
    const gzipped = [];
    for await (const file of gzippedUrlsetFiles(urls)) gzipped.push(file);
    expect(gzipped.map((f) => f.urls)).toEqual([50_000, 50_000, 20_000]);
    gzipped.forEach((file, i) => {
      const xml = gunzipSync(file.gz);
      expect(xml.equals(plain[i]!.xml)).toBe(true);
      expect(file.bytes).toBe(xml.length);
    });
  });

  it('takes async sources and honours the gzip level', async () => {
    async function* source() {
      yield* plainUrls(10);
    }
    const files = [];
    for await (const file of gzippedUrlsetFiles(source(), { level: 9, maxUrls: 4 })) files.push(file);
    expect(files.map((f) => f.urls)).toEqual([4, 4, 2]);
    expect(gunzipSync(files[2]!.gz).toString()).toBe(
      `${urlsetOpen(0)}<url><loc>${ORIGIN}/p/8</loc></url><url><loc>${ORIGIN}/p/9</loc></url>${URLSET_CLOSE}`,
    );
  });

  it('refuses new fragments while a file is being compressed', async () => {
    const builder = new UrlsetBuilder();
    const a = toUrlFragment({ loc: `${ORIGIN}/a` });
    builder.add(a.xml, a.mask);
    const pending = builder.finishGzipped();
    expect(codeOf(() => builder.add(a.xml, a.mask))).toBe('BUILDER_BUSY');
    const file = await pending;
    expect(gunzipSync(file.gz).equals(assembleUrlset([a]))).toBe(true);
    expect(builder.add(a.xml, a.mask)).toBe(true);
  });
});
