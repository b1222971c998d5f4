// The `sitemap` package's parsed item, as the raw entry our preparer validates: the same camelCase
// shape a client sends to the API, so an imported entry meets exactly the rules a PUT does.
// Tags Google retired (image caption/title, video category, …) are not carried over.
import type { SitemapItem, VideoItem } from 'sitemap';

export function entryOfSitemapItem(item: SitemapItem): Record<string, unknown> {
  const entry: Record<string, unknown> = { loc: item.url };
  if (item.lastmod !== undefined) entry.lastmod = item.lastmod;
  if (item.changefreq !== undefined) entry.changefreq = item.changefreq;
  if (item.priority !== undefined) entry.priority = item.priority;
  // A sitemap lists each URL's whole cluster; a URL with no links is in none.
  entry.alternates = item.links.map((link) => ({ hreflang: link.lang, href: link.url }));
  if (item.img.length > 0) entry.images = item.img.map((image) => ({ loc: image.url }));
  if (item.video.length > 0) entry.videos = item.video.map(videoOf);
  if (item.news) {
    entry.news = {
      publicationName: item.news.publication.name,
      publicationLanguage: item.news.publication.language,
      publicationDate: item.news.publication_date,
      title: item.news.title,
    };
  }
  return entry;
}

function videoOf(v: VideoItem): Record<string, unknown> {
  const video: Record<string, unknown> = { thumbnailLoc: v.thumbnail_loc, title: v.title, description: v.description };
  if (v.content_loc !== undefined) video.contentLoc = v.content_loc;
  if (v.player_loc !== undefined) video.playerLoc = v.player_loc;
  if (v.duration !== undefined) video.duration = v.duration;
  if (v.expiration_date !== undefined) video.expirationDate = v.expiration_date;
  if (v.rating !== undefined) video.rating = v.rating;
  if (v.view_count !== undefined) video.viewCount = v.view_count;
  if (v.publication_date !== undefined) video.publicationDate = v.publication_date;
  if (v.family_friendly !== undefined) video.familyFriendly = v.family_friendly === 'yes';
  if (v.restriction !== undefined) video.restriction = { relationship: v['restriction:relationship'], countries: v.restriction.split(/\s+/).filter(Boolean) };
  if (v.platform !== undefined) video.platform = { relationship: v['platform:relationship'], platforms: v.platform.split(/\s+/).filter(Boolean) };
  if (v.requires_subscription !== undefined) video.requiresSubscription = v.requires_subscription === 'yes';
  if (v.uploader !== undefined) video.uploader = v['uploader:info'] === undefined ? { name: v.uploader } : { name: v.uploader, info: v['uploader:info'] };
  if (v.live !== undefined) video.live = v.live === 'yes';
  if (v.tag.length > 0) video.tags = v.tag;
  return video;
}
