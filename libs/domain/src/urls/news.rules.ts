// Google News reads only articles published in the last two days, at most 1,000 per news
// sitemap. Fresh news URLs therefore live in their own shards (section `news`); when an
// article ages out, a scheduled refresh moves it to the default section without its news block.
import { lastmodInstant } from './url-content';

export const NEWS_SECTION = 'news';
export const NEWS_WINDOW_MS = 2 * 24 * 3_600_000;
export const MAX_NEWS_URLS_PER_FILE = 1_000;

/** Until when an article belongs in a news sitemap, or null when it has no news data. */
export function newsUntil(news: { publicationDate: string } | undefined | null): Date | null {
  if (!news) return null;
  return new Date(lastmodInstant(news.publicationDate).getTime() + NEWS_WINDOW_MS);
}

export function isFreshNews(news: { publicationDate: string } | undefined | null, now: Date): boolean {
  const until = newsUntil(news);
  return until !== null && until.getTime() > now.getTime();
}
