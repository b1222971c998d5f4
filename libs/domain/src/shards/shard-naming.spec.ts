import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  INDEX_PATH,
  legacyShardFilePath,
  RESERVED_SECTIONS,
  ROBOTS_PATH,
  SECTION_PATTERN,
  shardFilePath,
  stylesheetHref,
  TEXT_SITEMAP_PATH,
  textSitemapPath,
} from './shard-naming';

describe('shardFilePath', () => {
  it('puts every shard at the root, where the protocol lets it list any URL of the site', () => {
    expect(shardFilePath('', 1)).toBe('sitemap-1.xml.gz');
    expect(shardFilePath('products', 3)).toBe('sitemap-products-3.xml.gz');
    expect(shardFilePath('products', 3, 2)).toBe('sitemap-products-3.2.xml.gz');
    expect(legacyShardFilePath('', 1)).toBe('sitemaps/sitemap-1.xml.gz');
    expect(legacyShardFilePath('products', 3, 2)).toBe('sitemaps/products-3-2.xml.gz');
    for (const path of [shardFilePath('', 1), shardFilePath('a-1', 2, 3), textSitemapPath(2)]) {
      expect(path).not.toContain('/');
    }
  });

  it('gives every (section, ordinal, part) its own name, apart from the other root files', () => {
    // Sections that end in digits or hold hyphens are where a `-`-joined part would collide.
    const sections = ['', '1', '2', 'a', 'a-1', 'a-1-2', '1-1', 'news', 'products'];
    for (const section of sections) expect(section === '' || SECTION_PATTERN.test(section)).toBe(true);
    const names = new Map<string, string>();
    for (const section of sections)
      for (let ordinal = 1; ordinal <= 12; ordinal++)
        for (let part = 1; part <= 3; part++) {
          const path = shardFilePath(section, ordinal, part);
          expect(names.get(path), path).toBeUndefined();
          names.set(path, `${section}/${ordinal}/${part}`);
          // Served as stored and as `.xml`: neither form is the index.
          expect([path, path.replace(/\.gz$/, '')]).not.toContain(INDEX_PATH);
        }
    const texts = Array.from({ length: 20 }, (_, i) => textSitemapPath(i + 1));
    expect(new Set(texts).size).toBe(texts.length);
    const others = [INDEX_PATH, TEXT_SITEMAP_PATH, ROBOTS_PATH, stylesheetHref(INDEX_PATH)];
    for (const text of texts) expect(names.has(text) || [ROBOTS_PATH, INDEX_PATH].includes(text)).toBe(false);
    for (const other of others.slice(2)) expect(names.has(other) || texts.includes(other)).toBe(false);
    // The IndexNow key file is `<uuid>.txt`: hex digits and hyphens never spell `sitemap`.
    for (let i = 0; i < 100; i++) {
      const key = `${randomUUID()}.txt`;
      expect(names.has(key) || texts.includes(key)).toBe(false);
      expect(key.startsWith('sitemap')).toBe(false);
    }
    expect(RESERVED_SECTIONS.has('sitemap')).toBe(true);
  });
});

describe('stylesheetHref', () => {
  it('names the root sitemap.xsl relative to each file, under a host and under /s/<hostname>/ alike', () => {
    const index = stylesheetHref(INDEX_PATH);
    const shard = stylesheetHref(shardFilePath('products', 3, 2));
    expect([index, shard]).toEqual(['sitemap.xsl', 'sitemap.xsl']);
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
