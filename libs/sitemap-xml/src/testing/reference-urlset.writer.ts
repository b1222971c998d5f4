import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { SitemapUrl, SitemapVideo } from '../sitemap-xml.types';

// The slow, obvious rendering the fast writer is checked against: an xmlbuilder2 DOM built
// straight from the protocol, sharing no code with url-fragment.writer.ts (not even the
// namespace constants or the number formatting).

const NS = {
  sitemap: 'http://www.sitemaps.org/schemas/sitemap/0.9',
  xhtml: 'http://www.w3.org/1999/xhtml',
  image: 'http://www.google.com/schemas/sitemap-image/1.1',
  video: 'http://www.google.com/schemas/sitemap-video/1.1',
  news: 'http://www.google.com/schemas/sitemap-news/0.9',
  xmlns: 'http://www.w3.org/2000/xmlns/',
};

export function renderReferenceUrlset(urls: readonly SitemapUrl[]): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS.sitemap, 'urlset');
  if (urls.some((u) => (u.alternates ?? []).length > 0)) root.att(NS.xmlns, 'xmlns:xhtml', NS.xhtml);
  if (urls.some((u) => (u.images ?? []).length > 0)) root.att(NS.xmlns, 'xmlns:image', NS.image);
  if (urls.some((u) => (u.videos ?? []).length > 0)) root.att(NS.xmlns, 'xmlns:video', NS.video);
  if (urls.some((u) => u.news !== undefined)) root.att(NS.xmlns, 'xmlns:news', NS.news);

  for (const u of urls) {
    const url = root.ele(NS.sitemap, 'url');
    url.ele(NS.sitemap, 'loc').txt(u.loc);
    if (u.lastmod !== undefined) url.ele(NS.sitemap, 'lastmod').txt(u.lastmod);
    if (u.changefreq !== undefined) url.ele(NS.sitemap, 'changefreq').txt(u.changefreq);
    if (u.priority !== undefined)
      url.ele(NS.sitemap, 'priority').txt(Number.isInteger(u.priority) ? u.priority.toFixed(1) : String(u.priority));
    for (const a of u.alternates ?? []) {
      url.ele(NS.xhtml, 'xhtml:link').att('rel', 'alternate').att('hreflang', a.hreflang).att('href', a.href);
    }
    for (const i of u.images ?? []) url.ele(NS.image, 'image:image').ele(NS.image, 'image:loc').txt(i.loc);
    for (const v of u.videos ?? []) video(url, v);
    if (u.news !== undefined) {
      const news = url.ele(NS.news, 'news:news');
      const publication = news.ele(NS.news, 'news:publication');
      publication.ele(NS.news, 'news:name').txt(u.news.publicationName);
      publication.ele(NS.news, 'news:language').txt(u.news.publicationLanguage);
      news.ele(NS.news, 'news:publication_date').txt(u.news.publicationDate);
      news.ele(NS.news, 'news:title').txt(u.news.title);
    }
  }
  return root.end({ prettyPrint: false, wellFormed: true });
}

function video(url: XMLBuilder, v: SitemapVideo): void {
  const el = url.ele(NS.video, 'video:video');
  const child = (name: string, text: string) => el.ele(NS.video, `video:${name}`).txt(text);
  const yesNo = (b: boolean) => (b ? 'yes' : 'no');
  child('thumbnail_loc', v.thumbnailLoc);
  child('title', v.title);
  child('description', v.description);
  if (v.contentLoc !== undefined) child('content_loc', v.contentLoc);
  if (v.playerLoc !== undefined) child('player_loc', v.playerLoc);
  if (v.duration !== undefined) child('duration', String(v.duration));
  if (v.expirationDate !== undefined) child('expiration_date', v.expirationDate);
  if (v.rating !== undefined) child('rating', trimDecimal(v.rating.toFixed(2)));
  if (v.viewCount !== undefined) child('view_count', String(v.viewCount));
  if (v.publicationDate !== undefined) child('publication_date', v.publicationDate);
  for (const tag of v.tags ?? []) child('tag', tag);
  if (v.familyFriendly !== undefined) child('family_friendly', yesNo(v.familyFriendly));
  if (v.restriction !== undefined) {
    child('restriction', v.restriction.countries.join(' ')).att('relationship', v.restriction.relationship);
  }
  if (v.requiresSubscription !== undefined) child('requires_subscription', yesNo(v.requiresSubscription));
  if (v.uploader !== undefined) {
    const uploader = child('uploader', v.uploader.name);
    if (v.uploader.info !== undefined) uploader.att('info', v.uploader.info);
  }
  if (v.platform !== undefined)
    child('platform', v.platform.platforms.join(' ')).att('relationship', v.platform.relationship);
  if (v.live !== undefined) child('live', yesNo(v.live));
}

function trimDecimal(fixed: string): string {
  // "4.50" and "4.00" as "4.5" and "4.0": the same decimal the fast writer prints.
  return fixed.endsWith('0') ? fixed.slice(0, -1) : fixed;
}
