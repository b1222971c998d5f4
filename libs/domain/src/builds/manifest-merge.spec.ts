import { describe, expect, it } from 'vitest';
import {
  compareShardPaths,
  droppedBlobs,
  mergeManifest,
  newestLastmod,
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

describe('mergeManifest', () => {
  it('builds a first manifest from the renders', () => {
    const merged = mergeManifest(null, [
      { shardId: 1n, changeSeq: 3n, files: [rendered('sitemaps/sitemap-1.xml.gz', 'a')] },
      { shardId: 2n, changeSeq: 1n, files: [] },
    ]);
    expect(merged.files).toEqual({ 'sitemaps/sitemap-1.xml.gz': file('a') });
    expect(merged.shards).toEqual({ 1: { changeSeq: '3', paths: ['sitemaps/sitemap-1.xml.gz'] } });
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
        'sitemaps/sitemap-1.xml.gz': file('a'),
        'sitemaps/sitemap-2.xml.gz': file('b'),
        'sitemaps/sitemap-2-2.xml.gz': file('c'),
      },
      shards: {
        1: { changeSeq: '1', paths: ['sitemaps/sitemap-1.xml.gz'] },
        2: { changeSeq: '4', paths: ['sitemaps/sitemap-2.xml.gz', 'sitemaps/sitemap-2-2.xml.gz'] },
      },
    };
    const merged = mergeManifest(current, [
      { shardId: 2n, changeSeq: 5n, files: [rendered('sitemaps/sitemap-2.xml.gz', 'd')] },
    ]);
    expect(merged.files).toEqual({ 'sitemaps/sitemap-1.xml.gz': file('a'), 'sitemaps/sitemap-2.xml.gz': file('d') });
    expect(merged.shards).toEqual({
      1: current.shards[1],
      2: { changeSeq: '5', paths: ['sitemaps/sitemap-2.xml.gz'] },
    });
    expect(current.files['sitemap.xml']).toBeDefined(); // the input is not changed
  });

  it('never replaces a newer render with an older one (concurrent builds)', () => {
    const current = {
      files: { 'sitemaps/sitemap-1.xml.gz': file('n') },
      shards: { 1: { changeSeq: '7', paths: ['sitemaps/sitemap-1.xml.gz'] } },
    };
    const merged = mergeManifest(current, [
      { shardId: 1n, changeSeq: 6n, files: [rendered('sitemaps/sitemap-1.xml.gz', 'o')] },
    ]);
    expect(merged.files).toEqual(current.files);
    expect(merged.applied).toEqual([]);
  });

  it('takes a shard out when it rendered empty', () => {
    const current = {
      files: { 'sitemaps/sitemap-1.xml.gz': file('a') },
      shards: { 1: { changeSeq: '1', paths: ['sitemaps/sitemap-1.xml.gz'] } },
    };
    const merged = mergeManifest(current, [{ shardId: 1n, changeSeq: 2n, files: [] }]);
    expect(merged).toEqual({ files: {}, shards: {}, applied: [{ shardId: 1n, changeSeq: 2n }] });
  });
});

describe('manifest helpers', () => {
  it('orders shard paths by section file prefix, then ordinal as a number', () => {
    const paths = [
      'sitemaps/sitemap-10.xml.gz',
      'sitemaps/news-1.xml.gz',
      'sitemaps/sitemap-2.xml.gz',
      'sitemaps/blog-3.xml.gz',
    ];
    expect([...paths].sort(compareShardPaths)).toEqual([
      'sitemaps/blog-3.xml.gz',
      'sitemaps/news-1.xml.gz',
      'sitemaps/sitemap-2.xml.gz',
      'sitemaps/sitemap-10.xml.gz',
    ]);
  });

  it('lists the blobs a switch drops, once each', () => {
    expect(droppedBlobs({ a: file('a'), b: file('b'), c: file('b') }, { a: file('a') })).toEqual([file('b').sha256]);
  });

  it('finds the newest lastmod by instant', () => {
    expect(
      newestLastmod([
        file('a', { lastmod: '2026-01-02' }),
        file('b', { lastmod: '2026-01-01T23:00:00-05:00' }),
        file('c'),
      ]),
    ).toBe('2026-01-01T23:00:00-05:00');
    expect(newestLastmod([file('a')])).toBeNull();
  });
});
