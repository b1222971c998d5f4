import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipFile } from './gzip';
import { renderSitemapIndex } from './sitemap-index.writer';
import type { SitemapUrl } from './sitemap-xml.types';
import { renderTextSitemap } from './text-sitemap.writer';
import { createRng, generateRawEntry } from './testing/entry-generator';
import { validateSitemaps } from './testing/validate-sitemap';
import { normalizeUrlEntry } from './url-entry.rules';
import { renderUrlsetFiles } from './urlset.writer';

// Every feature, rendered, must pass the lib's validator (the published XSDs and the protocol's rules).

const ORIGIN = 'https://shop.example.com';

function entry(raw: Record<string, unknown>): SitemapUrl {
  const result = normalizeUrlEntry(raw, { origin: ORIGIN });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.url;
}

function single(urls: SitemapUrl[]): Buffer {
  const files = renderUrlsetFiles(urls);
  expect(files).toHaveLength(1);
  return files[0]!.xml;
}

async function expectValid(documents: Record<string, string | Buffer>): Promise<void> {
  const result = await validateSitemaps(documents);
  expect(result.output).not.toMatch(/fails to validate|error/i);
  expect(result.ok, result.output).toBe(true);
}

const FULL_VIDEO = {
  thumbnailLoc: 'https://cdn.example.com/thumbs/1.jpg',
  title: 'Grilling steaks & "burgers" <for> summer',
  description: "Alkis shows you how to get perfectly done steaks every time — it's easy.\r\nSecond line\twith tab.",
  contentLoc: 'https://cdn.example.com/video/1.mp4',
  playerLoc: 'https://player.example.com/embed?v=1&autoplay=1',
  duration: 600,
  expirationDate: '2030-11-05T19:20:30+08:00',
  rating: 4.2,
  viewCount: 12345,
  publicationDate: '2024-11-05',
  familyFriendly: true,
  restriction: { relationship: 'allow', countries: ['IE', 'GB', 'US', 'CA'] },
  platform: { relationship: 'deny', platforms: ['tv', 'mobile'] },
  requiresSubscription: false,
  uploader: { name: 'GrillyMcGrillerson', info: 'https://shop.example.com/users/grillymcgrillerson' },
  live: false,
  tags: ['steak', 'meat', 'summer', 'outdoor', 'ünïcödé 😀'],
};

describe('rendered files validate against the sitemap schemas', () => {
  it('(the harness itself rejects a file that breaks the schema)', async () => {
    const broken =
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shop.example.com/</loc><priority>1.5</priority></url></urlset>';
    expect((await validateSitemaps({ 'broken.xml': broken })).ok).toBe(false);
  });

  it('plain URLs, with and without lastmod, changefreq and priority', async () => {
    const xml = single([
      entry({ loc: `${ORIGIN}/` }),
      entry({ loc: `${ORIGIN}/a?x=1&y='2'`, lastmod: '2024-05-01', changefreq: 'weekly', priority: 0.8 }),
      entry({ loc: `${ORIGIN}/b`, lastmod: '2024-05-01T10:30+02:00', priority: 0 }),
      entry({ loc: `${ORIGIN}/c`, lastmod: '2024-05-01T10:30:45.123456Z', priority: 1, changefreq: 'never' }),
      entry({ loc: `${ORIGIN}/Bücher/straße/😀` }),
    ]);
    expect(xml.toString()).not.toContain('xmlns:xhtml');
    await expectValid({ 'plain.xml': xml });
  });

  it('alternates including x-default and script subtags', async () => {
    const alternates = [
      { hreflang: 'en', href: `${ORIGIN}/en/p` },
      { hreflang: 'en-GB', href: 'https://shop.example.co.uk/p' },
      { hreflang: 'de-DE', href: 'https://shop.example.de/p?a=1&b=2' },
      { hreflang: 'zh-Hant-TW', href: 'https://tw.example.com/p' },
      { hreflang: 'x-default', href: `${ORIGIN}/p` },
    ];
    const xml = single([entry({ loc: `${ORIGIN}/p`, alternates }), entry({ loc: `${ORIGIN}/en/p`, alternates })]);
    await expectValid({ 'alternates.xml': xml });
  });

  it('images, up to 1,000 per URL', async () => {
    const xml = single([
      entry({
        loc: `${ORIGIN}/gallery`,
        images: Array.from({ length: 1000 }, (_, i) => ({ loc: `https://cdn.example.com/${i}.jpg` })),
      }),
      entry({ loc: `${ORIGIN}/one`, images: [{ loc: 'https://cdn.example.com/a&b.jpg' }] }),
    ]);
    await expectValid({ 'images.xml': xml });
  });

  it('videos with every optional field, and with only the required ones', async () => {
    const xml = single([
      entry({ loc: `${ORIGIN}/videos/1`, videos: [FULL_VIDEO] }),
      entry({
        loc: `${ORIGIN}/videos/2`,
        videos: [
          {
            thumbnailLoc: 'https://cdn.example.com/t2.jpg',
            title: 'T',
            description: 'D',
            playerLoc: 'https://player.example.com/2',
          },
          { ...FULL_VIDEO, familyFriendly: false, requiresSubscription: true, live: true, rating: 5, duration: 28_800 },
          { ...FULL_VIDEO, rating: 0, duration: 1, viewCount: 0, uploader: { name: 'Anon' } },
        ],
      }),
    ]);
    await expectValid({ 'videos.xml': xml });
  });

  it('news, including zh-cn and a three-letter language', async () => {
    const xml = single([
      entry({
        loc: `${ORIGIN}/news/1`,
        news: {
          publicationName: 'The Example Times',
          publicationLanguage: 'en',
          publicationDate: '2024-05-01T08:00Z',
          title: 'Companies A, B in "merger" talks',
        },
      }),
      entry({
        loc: `${ORIGIN}/news/2`,
        news: {
          publicationName: '示例时报',
          publicationLanguage: 'zh-CN',
          publicationDate: '2024-05-01',
          title: '标题',
        },
      }),
      entry({
        loc: `${ORIGIN}/news/3`,
        news: { publicationName: 'Nūpepa', publicationLanguage: 'haw', publicationDate: '2024-05-01', title: 'Poʻo' },
      }),
    ]);
    await expectValid({ 'news.xml': xml });
  });

  it('everything together in one URL', async () => {
    const xml = single([
      entry({
        loc: `${ORIGIN}/all`,
        lastmod: '2024-05-01T10:00:00Z',
        changefreq: 'daily',
        priority: 0.5,
        alternates: [
          { hreflang: 'en', href: `${ORIGIN}/all` },
          { hreflang: 'x-default', href: `${ORIGIN}/all` + '?x' },
        ],
        images: [{ loc: 'https://cdn.example.com/all.jpg' }],
        videos: [FULL_VIDEO],
        news: { publicationName: 'Times', publicationLanguage: 'en', publicationDate: '2024-05-01', title: 'All' },
      }),
    ]);
    await expectValid({ 'all.xml': xml });
  });

  it('gzipped files', async () => {
    const xml = single([entry({ loc: `${ORIGIN}/gz`, videos: [FULL_VIDEO] })]);
    const gz = await gzipFile([xml]);
    expect(gunzipSync(gz).equals(xml)).toBe(true);
    await expectValid({ 'gz.xml.gz': gz });
  });

  it('a sitemap index', async () => {
    const xml = renderSitemapIndex([
      { loc: `${ORIGIN}/sitemaps/products-1.xml.gz`, lastmod: '2024-05-01T10:00:00Z' },
      { loc: `${ORIGIN}/sitemaps/products-2.xml.gz`, lastmod: '2024-05-01' },
      { loc: `${ORIGIN}/sitemaps/news.xml?v=1&x=2` },
    ]);
    await expectValid({ 'index.xml': xml });
  });

  it('a text sitemap has one absolute URI per line', async () => {
    const text = renderTextSitemap([`${ORIGIN}/a`, `${ORIGIN}/Bücher?q=ü`, `${ORIGIN}/c d`]);
    expect(text).toBe(`${ORIGIN}/a\n${ORIGIN}/B%C3%BCcher?q=%C3%BC\n${ORIGIN}/c%20d\n`);
  });

  it('thousands of generated entries with hostile strings and every extension', async () => {
    const rng = createRng(20240501);
    const urls: SitemapUrl[] = [];
    for (let i = 0; i < 2000; i++) urls.push(entry(generateRawEntry(rng, ORIGIN, i)));
    const files = renderUrlsetFiles(urls);
    await expectValid(Object.fromEntries(files.map((file, i) => [`generated-${i}.xml`, file.xml])));
  });
});
