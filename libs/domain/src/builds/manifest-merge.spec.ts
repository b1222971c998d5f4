import { describe, expect, it } from 'vitest';
import {
  compareShardPaths,
  droppedBlobs,
  indexEntries,
  mergeManifest,
  stampModified,
  type ManifestFile,
  type RenderedFile,
} from './manifest-merge';

const file = (sha: string, overrides: Partial<ManifestFile> = {}): ManifestFile => ({
  sha256: sha.repeat(64).slice(0, 64),
  kind: 'shard',
  byteSize: 100,
  gzipSize: 50,
  urlCount: 2,
  lastmod: null,
  ...overrides,
});
const rendered = (path: string, sha: string): RenderedFile => ({ path, ...file(sha) });
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const at = (sha: string, modifiedAt: string, overrides: Partial<ManifestFile> = {}) =>
  file(sha, { modifiedAt, ...overrides });

describe('mergeManifest', () => {
  it('builds a first manifest from the renders', () => {
    const merged = mergeManifest(
      null,
      [
        { shardId: 1n, changeSeq: 3n, files: [rendered('sitemap-1.xml.gz', 'a')] },
        { shardId: 2n, changeSeq: 1n, files: [] },
      ],
      T0,
    );
    expect(merged.files).toEqual({ 'sitemap-1.xml.gz': at('a', T0) });
    expect(merged.shards).toEqual({ 1: { changeSeq: '3', paths: ['sitemap-1.xml.gz'] } });
    expect(merged.applied).toEqual([
      { shardId: 1n, changeSeq: 3n },
      { shardId: 2n, changeSeq: 1n },
    ]);
  });

  it("replaces a shard's files, keeps the others, and drops the index and sitemap.txt", () => {
    const current = {
      files: {
        'sitemap.xml': file('i', { kind: 'index' }),
        'sitemap.txt': file('t', { kind: 'text' }),
        'sitemap-1.xml.gz': at('a', T0),
        'sitemap-2.xml.gz': at('b', T0),
        'sitemap-2.2.xml.gz': at('c', T0),
      },
      shards: {
        1: { changeSeq: '1', paths: ['sitemap-1.xml.gz'] },
        2: { changeSeq: '4', paths: ['sitemap-2.xml.gz', 'sitemap-2.2.xml.gz'] },
      },
    };
    const merged = mergeManifest(
      current,
      [{ shardId: 2n, changeSeq: 5n, files: [rendered('sitemap-2.xml.gz', 'd')] }],
      T1,
    );
    expect(merged.files).toEqual({ 'sitemap-1.xml.gz': at('a', T0), 'sitemap-2.xml.gz': at('d', T1) });
    expect(merged.shards).toEqual({
      1: current.shards[1],
      2: { changeSeq: '5', paths: ['sitemap-2.xml.gz'] },
    });
    expect(current.files['sitemap.xml']).toBeDefined(); // the input is not changed
  });

  it('never replaces a newer render with an older one (concurrent builds)', () => {
    const current = {
      files: { 'sitemap-1.xml.gz': at('n', T0) },
      shards: { 1: { changeSeq: '7', paths: ['sitemap-1.xml.gz'] } },
    };
    const merged = mergeManifest(
      current,
      [{ shardId: 1n, changeSeq: 6n, files: [rendered('sitemap-1.xml.gz', 'o')] }],
      T1,
    );
    expect(merged.files).toEqual(current.files);
    expect(merged.applied).toEqual([]);
  });

  it('takes a shard out when it rendered empty', () => {
    const current = {
      files: { 'sitemap-1.xml.gz': file('a') },
      shards: { 1: { changeSeq: '1', paths: ['sitemap-1.xml.gz'] } },
    };
    const merged = mergeManifest(current, [{ shardId: 1n, changeSeq: 2n, files: [] }], T0);
    expect(merged).toEqual({ files: {}, shards: {}, applied: [{ shardId: 1n, changeSeq: 2n }], redirects: {} });
  });

  it('dates a file by when its published bytes last changed, not by the lastmod of its URLs', () => {
    const current = {
      files: {
        'sitemap-1.xml.gz': at('a', T0, { lastmod: '2025-06-01' }),
        'sitemap-2.xml.gz': at('b', T0, { lastmod: '2025-06-01' }),
      },
      shards: {
        1: { changeSeq: '1', paths: ['sitemap-1.xml.gz'] },
        2: { changeSeq: '1', paths: ['sitemap-2.xml.gz'] },
      },
    };
    // Shard 1 lost its newest URL: its newest lastmod moved back, its bytes changed. Shard 2 was
    // rendered again to the same bytes.
    const merged = mergeManifest(
      current,
      [
        { shardId: 1n, changeSeq: 2n, files: [{ ...rendered('sitemap-1.xml.gz', 'c'), lastmod: '2025-01-01' }] },
        { shardId: 2n, changeSeq: 2n, files: [{ ...rendered('sitemap-2.xml.gz', 'b'), lastmod: '2025-06-01' }] },
      ],
      T1,
    );
    expect(merged.files['sitemap-1.xml.gz']?.modifiedAt).toBe(T1);
    expect(merged.files['sitemap-2.xml.gz']?.modifiedAt).toBe(T0);
    const entries = indexEntries({ ...merged.files, 'sitemap.xml': file('i', { kind: 'index' }) }, 'https://x.example');
    expect(entries).toEqual([
      { loc: 'https://x.example/sitemap-1.xml.gz', lastmod: T1 },
      { loc: 'https://x.example/sitemap-2.xml.gz', lastmod: T0 },
    ]);
  });

  it('moves legacy shard paths to the root and redirects them while their new path is published', () => {
    const current = {
      files: { 'sitemaps/blog-1.xml.gz': file('a'), 'sitemaps/blog-1-2.xml.gz': file('b') },
      shards: { 1: { changeSeq: '1', paths: ['sitemaps/blog-1.xml.gz', 'sitemaps/blog-1-2.xml.gz'] } },
    };
    const moved = mergeManifest(
      current,
      [
        {
          shardId: 1n,
          changeSeq: 1n,
          files: [rendered('sitemap-blog-1.xml.gz', 'c'), rendered('sitemap-blog-1.2.xml.gz', 'd')],
        },
      ],
      T1,
    );
    expect(Object.keys(moved.files)).toEqual(['sitemap-blog-1.xml.gz', 'sitemap-blog-1.2.xml.gz']);
    expect(moved.redirects).toEqual({
      'sitemaps/blog-1.xml.gz': 'sitemap-blog-1.xml.gz',
      'sitemaps/blog-1-2.xml.gz': 'sitemap-blog-1.2.xml.gz',
    });
    // Kept across builds while the file is published; the part that is gone takes its redirect with it.
    const later = mergeManifest(
      moved,
      [{ shardId: 1n, changeSeq: 2n, files: [rendered('sitemap-blog-1.xml.gz', 'e')] }],
      T1,
    );
    expect(later.redirects).toEqual({ 'sitemaps/blog-1.xml.gz': 'sitemap-blog-1.xml.gz' });
    expect(mergeManifest(later, [{ shardId: 1n, changeSeq: 3n, files: [] }], T1).redirects).toEqual({});
  });
});

describe('manifest helpers', () => {
  it('moves a changed file to at least the next whole second, so the index date moves too', () => {
    const previous = at('a', '2026-01-01T00:00:00.400Z');
    // The same bytes keep their time; new bytes in the same second go to the next one.
    expect(stampModified(previous, file('a'), '2026-01-01T00:00:00.900Z').modifiedAt).toBe(previous.modifiedAt);
    expect(stampModified(previous, file('b'), '2026-01-01T00:00:00.900Z').modifiedAt).toBe('2026-01-01T00:00:01.000Z');
    expect(stampModified(previous, file('b'), '2026-01-01T00:00:05.000Z').modifiedAt).toBe('2026-01-01T00:00:05.000Z');
    expect(stampModified(undefined, file('b'), T1).modifiedAt).toBe(T1);
  });

  it('orders shard paths: the default section, then by section, then ordinal and part as numbers', () => {
    const paths = [
      'sitemap-10.xml.gz',
      'sitemap-news-1.xml.gz',
      'sitemap-2.xml.gz',
      'sitemap-blog-3.xml.gz',
      'sitemap-blog-3.10.xml.gz',
      'sitemap-blog-3.2.xml.gz',
    ];
    expect([...paths].sort(compareShardPaths)).toEqual([
      'sitemap-2.xml.gz',
      'sitemap-10.xml.gz',
      'sitemap-blog-3.xml.gz',
      'sitemap-blog-3.2.xml.gz',
      'sitemap-blog-3.10.xml.gz',
      'sitemap-news-1.xml.gz',
    ]);
  });

  it('lists the blobs a switch drops, once each', () => {
    expect(droppedBlobs({ a: file('a'), b: file('b'), c: file('b') }, { a: file('a') })).toEqual([file('b').sha256]);
  });

  it('drops what the publish stored but does not list, and never what it lists', () => {
    const stored = [file('a').sha256, file('c').sha256, file('b').sha256];
    expect(droppedBlobs({ b: file('b') }, { a: file('a') }, stored)).toEqual([file('b').sha256, file('c').sha256]);
  });
});
