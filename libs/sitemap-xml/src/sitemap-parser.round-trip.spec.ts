import { Readable } from 'node:stream';
import { ErrorLevel, XMLToSitemapItemStream, type SitemapItem } from 'sitemap';
import { describe, expect, it } from 'vitest';
import type { SitemapUrl, SitemapVideo } from './sitemap-xml.types';
import { createRng, generateRawEntry } from './testing/entry-generator';
import { normalizeUrlEntry } from './url-entry.rules';
import { renderUrlsetFiles } from './urlset.writer';

// Round trip through an independent parser: the `sitemap` package's sax-based reader must
// give back exactly the entries that were written.

const ORIGIN = 'https://shop.example.com';

async function parseWithSitemapPackage(xml: Buffer): Promise<SitemapItem[]> {
  const items: SitemapItem[] = [];
  const parser = new XMLToSitemapItemStream({ level: ErrorLevel.THROW, logger: false });
  await new Promise<void>((resolve, reject) => {
    Readable.from([xml]).pipe(parser).on('data', (item: SitemapItem) => items.push(item)).on('end', resolve).on('error', reject);
  });
  expect(parser.errors).toEqual([]);
  return items;
}

/** The package's item shape, read back into ours. */
function fromSitemapItem(item: SitemapItem): SitemapUrl {
  const url: SitemapUrl = { loc: item.url };
  if (item.lastmod !== undefined) url.lastmod = item.lastmod;
  if (item.changefreq !== undefined) url.changefreq = item.changefreq;
  if (item.priority !== undefined) url.priority = item.priority;
  if (item.links.length > 0) url.alternates = item.links.map((l) => ({ hreflang: l.lang, href: l.url }));
  if (item.img.length > 0) url.images = item.img.map((i) => ({ loc: i.url }));
  if (item.video.length > 0) {
    url.videos = item.video.map((v) => {
      const video: SitemapVideo = { thumbnailLoc: v.thumbnail_loc, title: v.title, description: v.description };
      if (v.content_loc !== undefined) video.contentLoc = v.content_loc;
      if (v.player_loc !== undefined) video.playerLoc = v.player_loc;
      if (v.duration !== undefined) video.duration = v.duration;
      if (v.expiration_date !== undefined) video.expirationDate = v.expiration_date;
      if (v.rating !== undefined) video.rating = v.rating;
      if (v.view_count !== undefined) video.viewCount = v.view_count;
      if (v.publication_date !== undefined) video.publicationDate = v.publication_date;
      if (v.family_friendly !== undefined) video.familyFriendly = v.family_friendly === 'yes';
      if (v.restriction !== undefined) {
        video.restriction = { relationship: v['restriction:relationship']!, countries: v.restriction.split(' ') };
      }
      if (v.platform !== undefined) {
        video.platform = {
          relationship: v['platform:relationship']!,
          platforms: v.platform.split(' ') as ('web' | 'mobile' | 'tv')[],
        };
      }
      if (v.requires_subscription !== undefined) video.requiresSubscription = v.requires_subscription === 'yes';
      if (v.uploader !== undefined) {
        video.uploader = v['uploader:info'] === undefined ? { name: v.uploader } : { name: v.uploader, info: v['uploader:info'] };
      }
      if (v.live !== undefined) video.live = v.live === 'yes';
      if (v.tag.length > 0) video.tags = v.tag;
      return video;
    });
  }
  if (item.news !== undefined) {
    url.news = {
      publicationName: item.news.publication.name,
      publicationLanguage: item.news.publication.language,
      publicationDate: item.news.publication_date,
      title: item.news.title,
    };
  }
  return url;
}

describe('round trip through the sitemap package parser', () => {
  it('gives back exactly the generated entries, hostile strings and all', async () => {
    const rng = createRng(7);
    const urls: SitemapUrl[] = [];
    for (let i = 0; i < 2000; i++) {
      const result = normalizeUrlEntry(generateRawEntry(rng, ORIGIN, i), { origin: ORIGIN });
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      urls.push(result.url);
    }
    const [file] = renderUrlsetFiles(urls);
    const parsed = await parseWithSitemapPackage(file!.xml);
    expect(parsed).toHaveLength(urls.length);
    parsed.forEach((item, i) => expect(fromSitemapItem(item), urls[i]!.loc).toEqual(urls[i]));
  });

  it('keeps carriage returns, tabs and line breaks in text, and entity look-alikes as text', async () => {
    const result = normalizeUrlEntry(
      {
        loc: `${ORIGIN}/v`,
        videos: [
          {
            thumbnailLoc: 'https://cdn.example.com/t.jpg',
            title: 'a\r\nb\tc &amp; <![CDATA[x]]> ]]> &#38;',
            description: "line one\rline two\nline three 'q' \"qq\"",
            contentLoc: 'https://cdn.example.com/v.mp4',
          },
        ],
      },
      { origin: ORIGIN },
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const [item] = await parseWithSitemapPackage(renderUrlsetFiles([result.url])[0]!.xml);
    expect(item!.video[0]!.title).toBe('a\r\nb\tc &amp; <![CDATA[x]]> ]]> &#38;');
    expect(item!.video[0]!.description).toBe("line one\rline two\nline three 'q' \"qq\"");
  });
});
