import { z } from 'zod';
import {
  alternateSchema,
  imageSchema,
  newsSchema,
  urlEntrySchema,
  videoPlatformSchema,
  videoRestrictionSchema,
  videoSchema,
  videoUploaderSchema,
} from '@sitemaps/sitemap-xml';
import { cursorQuery } from '../common/pagination';
import { nameSchemas } from '../openapi/zod-openapi';

export const MAX_ENTRIES_PER_REQUEST = 10_000;

// The entry as the validator (normalizeUrlEntry) knows it: its fields come from these schemas.
nameSchemas({
  UrlEntry: urlEntrySchema,
  Alternate: alternateSchema,
  Image: imageSchema,
  Video: videoSchema,
  VideoRestriction: videoRestrictionSchema,
  VideoPlatform: videoPlatformSchema,
  VideoUploader: videoUploaderSchema,
  News: newsSchema,
});

export const upsertUrlsInput = z.array(urlEntrySchema).max(MAX_ENTRIES_PER_REQUEST);

export const deleteUrlsInput = z
  .object({ locs: z.array(z.string().min(1)).min(1).max(MAX_ENTRIES_PER_REQUEST) })
  .strict()
  .meta({ id: 'UrlDelete' });

export const urlFilter = z.object({
  prefix: z.string().max(2_048).optional().describe('only URLs whose loc starts with this'),
  section: z.string().max(40).optional().describe('only this section ("" is the default section)'),
  changedSince: z.coerce.date().optional().describe('only URLs changed at or after this instant'),
  excluded: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe(
      "only URLs kept out of the published files, by their flag or the site's rules (true), or only published ones (false)",
    ),
});
export type UrlFilter = z.output<typeof urlFilter>;
export const listUrlsQuery = cursorQuery.extend(urlFilter.shape);

export const urlExportQuery = z.object({
  changedSince: z.coerce.date().optional().describe('only URLs changed at or after this instant'),
});
export type UrlExportQuery = z.output<typeof urlExportQuery>;

const entryError = z
  .object({
    index: z.number().int(),
    loc: z.string().optional(),
    field: z.string(),
    code: z.string(),
    message: z.string(),
  })
  .meta({ id: 'UrlEntryProblem' });
export const upsertResultView = z
  .object({
    upserted: z.number().int().describe('valid entries stored (changed or already equal)'),
    changed: z.number().int().describe('URLs whose sitemap content changed'),
    errors: z.array(entryError),
    warnings: z.array(entryError),
  })
  .meta({ id: 'UrlUpsertResult' });
export const deleteResultView = z
  .object({ deleted: z.number().int(), notFound: z.array(z.string()) })
  .meta({ id: 'UrlDeleteResult' });

export const urlView = z
  .object({
    loc: z.string(),
    section: z.string().nullable(),
    lastmod: z.string().nullable(),
    changefreq: z.string().nullable(),
    priority: z.number().nullable(),
    alternates: z.array(alternateSchema).describe('the whole hreflang cluster, this URL included'),
    images: z.array(imageSchema),
    videos: z.array(videoSchema),
    news: newsSchema.nullable(),
    excluded: z
      .boolean()
      .describe(
        "kept out of every published file: flagged `excluded`, or matched by one of the site's exclusion rules",
      ),
    updatedAt: z.date(),
  })
  .meta({ id: 'Url', description: 'a URL as stored: normalized, as it is published' });
export type UrlView = z.output<typeof urlView>;
