import { describe, expect, it } from 'vitest';
import { INDEX_PATH, shardFilePath, stylesheetHref } from './shard-naming';

describe('stylesheetHref', () => {
  it('names the root sitemap.xsl relative to each file, under a host and under /s/<hostname>/ alike', () => {
    const index = stylesheetHref(INDEX_PATH);
    const shard = stylesheetHref(shardFilePath('products', 3, 2));
    expect([index, shard]).toEqual(['sitemap.xsl', '../sitemap.xsl']);
    for (const base of ['https://shop.example.com/', 'https://sitemaps.example.net/s/shop.example.com/']) {
      const expected = `${base}sitemap.xsl`;
      expect(new URL(index, new URL(INDEX_PATH, base)).href).toBe(expected);
      for (const shardPath of [shardFilePath('', 1), shardFilePath('products', 3, 2)]) {
        expect(new URL(shard, new URL(shardPath, base)).href).toBe(expected);
        expect(new URL(shard, new URL(shardPath.replace(/\.gz$/, ''), base)).href).toBe(expected);
      }
    }
  });
});
