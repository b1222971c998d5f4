// What an import of existing sitemaps repairs instead of refusing (the write API refuses all of
// it, as the client can correct and resend). A page is kept whenever its loc is good: an
// optional value that breaks a rule is left unset, an unusable hreflang link, image or video is
// dropped, a news block missing a part is dropped. Each repair is a warning with the code and
// field the refusal would have had, so the user sees what the sitemap said and what was kept.
import { MAX_IMAGES_PER_URL, MAX_VIDEO_TAGS } from '@sitemaps/sitemap-xml';
import type { ImportIssue } from './import.types';

export interface Violation {
  field: string;
  code: string;
  message: string;
}

type Path = (string | number)[];

const URL_SCALARS = new Set(['lastmod', 'changefreq', 'priority']);
/** A video without one of these is no video. */
const VIDEO_REQUIRED = new Set(['thumbnailLoc', 'title', 'description']);

/** The entry with every violation repaired, or undefined when one cannot be (the loc, the entry itself). */
export function repairEntry(
  entry: Record<string, unknown>,
  violations: Violation[],
): { entry: Record<string, unknown>; warnings: ImportIssue[] } | undefined {
  const repaired: Record<string, unknown> = structuredClone(entry);
  const warnings: ImportIssue[] = [];
  const drop = { alternates: new Set<number>(), images: new Set<number>(), videos: new Set<number>() };
  const tagsDropped = new Map<number, Set<number>>();
  for (const violation of violations) {
    const path = parsePath(violation.field);
    const [head, index, key] = path;
    let outcome: string | undefined;
    if (typeof head === 'string' && URL_SCALARS.has(head) && path.length === 1) {
      delete repaired[head];
      outcome = 'left unset';
    } else if (head === 'alternates') {
      if (typeof index === 'number') {
        drop.alternates.add(index);
        outcome = 'the link is dropped';
      } else {
        delete repaired.alternates;
        outcome = 'the links are dropped; the page keeps the cluster it had';
      }
    } else if (head === 'images') {
      if (typeof index === 'number') {
        drop.images.add(index);
        outcome = 'the image is dropped';
      } else if (Array.isArray(repaired.images)) {
        repaired.images = repaired.images.slice(0, MAX_IMAGES_PER_URL);
        outcome = `the images past the first ${MAX_IMAGES_PER_URL} are dropped`;
      }
    } else if (head === 'videos' && typeof index === 'number') {
      const video = (repaired.videos as Record<string, unknown>[] | undefined)?.[index];
      if (video && (key === undefined || VIDEO_REQUIRED.has(String(key)))) {
        drop.videos.add(index);
        outcome = 'the video is dropped';
      } else if (video && key === 'tags') {
        const tag = path[3];
        if (typeof tag === 'number') {
          tagsDropped.set(index, (tagsDropped.get(index) ?? new Set()).add(tag));
          outcome = 'the tag is dropped';
        } else if (Array.isArray(video.tags)) {
          video.tags = video.tags.slice(0, MAX_VIDEO_TAGS);
          outcome = `the tags past the first ${MAX_VIDEO_TAGS} are dropped`;
        }
      } else if (video && typeof key === 'string') {
        delete video[key];
        outcome = 'left unset';
      }
    } else if (head === 'news') {
      delete repaired.news;
      outcome = 'the news block is dropped';
    }
    if (outcome === undefined) return undefined;
    warnings.push({
      code: violation.code,
      field: violation.field,
      message: `${violation.message}: ${outcome}, the page kept`,
    });
  }
  for (const [index, tags] of tagsDropped) {
    const video = (repaired.videos as Record<string, unknown>[])[index] as Record<string, unknown>;
    if (Array.isArray(video.tags)) video.tags = video.tags.filter((_tag, i) => !tags.has(i));
  }
  for (const name of ['alternates', 'images', 'videos'] as const) {
    const list = repaired[name];
    if (drop[name].size > 0 && Array.isArray(list)) repaired[name] = list.filter((_item, i) => !drop[name].has(i));
  }
  // The sitemap listed videos, none usable: the page has none.
  if (Array.isArray(repaired.videos) && repaired.videos.length === 0) delete repaired.videos;
  if (Array.isArray(repaired.images) && repaired.images.length === 0) delete repaired.images;
  return { entry: repaired, warnings };
}

/** `videos[0].restriction.countries[1]` → ['videos', 0, 'restriction', 'countries', 1]. */
function parsePath(field: string): Path {
  const path: Path = [];
  for (const part of field.split('.')) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) return [field];
    if (match[1]) path.push(match[1]);
    for (const index of (match[2] ?? '').matchAll(/\[(\d+)\]/g)) path.push(Number(index[1]));
  }
  return path;
}
