// Reads sitemap XML with the `sitemap` package's sax-based parser (independent of this lib's
// writer) back into SitemapUrl: what round-trip tests compare with what was written. Test-only.
import { Readable } from 'node:stream';
import { ErrorLevel, XMLToSitemapItemStream, type SitemapItem } from 'sitemap';
import type { SitemapUrl, SitemapVideo } from '../sitemap-xml.types';

/** The package's items of a urlset, in document order; throws on anything the parser objects to. */
export async function readSitemapItems(xml: Buffer | string): Promise<SitemapItem[]> {
  const items: SitemapItem[] = [];
  const parser = new XMLToSitemapItemStream({ level: ErrorLevel.THROW, logger: false });
  await new Promise<void>((resolve, reject) => {
    Readable.from([Buffer.from(xml)])
      .pipe(parser)
      .on('data', (item: SitemapItem) => items.push(item))
      .on('end', resolve)
      .on('error', reject);
  });
  if (parser.errors.length > 0)
    throw new Error(`the sitemap package reported: ${parser.errors.map(String).join('; ')}`);
  return items;
}

/** Every <url> of a urlset, read back into our shape. */
export async function readUrlsetWithSitemapPackage(xml: Buffer | string): Promise<SitemapUrl[]> {
  return (await readSitemapItems(xml)).map(fromSitemapItem);
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
        video.uploader =
          v['uploader:info'] === undefined ? { name: v.uploader } : { name: v.uploader, info: v['uploader:info'] };
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
