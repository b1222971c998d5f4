import { z } from 'zod';
import { CHANGEFREQS } from '@sitemaps/sitemap-xml';
import { cursorQuery } from '../common/pagination';

export const MAX_ENTRIES_PER_REQUEST = 10_000;

const alternate = z.object({ hreflang: z.string(), href: z.string() });

/** For the document only: the ingest service validates entries itself, each on its own, and reports them by index. */
export const urlEntryInput = z.object({
  loc: z.string().max(2_048).describe('absolute URL on the site\'s scheme and host'),
  lastmod: z.string().optional().describe('W3C datetime'),
  changefreq: z.enum(CHANGEFREQS).optional(),
  priority: z.number().min(0).max(1).optional(),
  section: z.string().optional().describe('groups URLs into their own sitemap files'),
  hreflang: z.string().optional().describe("this URL's own language in its cluster"),
  alternates: z.array(alternate).optional().describe('the hreflang cluster; [] leaves it'),
  images: z.array(z.record(z.string(), z.unknown())).optional(),
  videos: z.array(z.record(z.string(), z.unknown())).optional(),
  news: z.record(z.string(), z.unknown()).optional(),
});
export const upsertUrlsInput = z.array(urlEntryInput).max(MAX_ENTRIES_PER_REQUEST);

export const deleteUrlsInput = z.object({ locs: z.array(z.string().min(1)).min(1).max(MAX_ENTRIES_PER_REQUEST) }).strict();

export const urlFilter = z.object({
  prefix: z.string().max(2_048).optional().describe('only URLs whose loc starts with this'),
  section: z.string().max(40).optional().describe('only this section ("" is the default section)'),
  changedSince: z.coerce.date().optional().describe('only URLs changed at or after this instant'),
});
export type UrlFilter = z.output<typeof urlFilter>;
export const listUrlsQuery = cursorQuery.extend(urlFilter.shape);

const entryError = z.object({ index: z.number().int(), loc: z.string().optional(), field: z.string(), code: z.string(), message: z.string() });
export const upsertResultView = z.object({
  upserted: z.number().int().describe('valid entries stored (changed or already equal)'),
  changed: z.number().int().describe('URLs whose sitemap content changed'),
  errors: z.array(entryError),
  warnings: z.array(entryError),
});
export const deleteResultView = z.object({ deleted: z.number().int(), notFound: z.array(z.string()) });

export const urlView = z.object({
  loc: z.string(),
  section: z.string().nullable(),
  lastmod: z.string().nullable(),
  changefreq: z.string().nullable(),
  priority: z.number().nullable(),
  alternates: z.array(alternate),
  images: z.unknown().describe('array of image entries'),
  videos: z.unknown().describe('array of video entries'),
  news: z.unknown().nullable(),
  updatedAt: z.date(),
});
export type UrlView = z.output<typeof urlView>;
