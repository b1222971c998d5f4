// The raw URL entry as clients send it (JSON through the API, a line of an import), as zod
// schemas: the contract that the API's OpenAPI document and the typed client are generated from.
//
// The rules themselves run in `normalizeUrlEntry` (url-entry.rules.ts), hand-written because it
// is the ingest hot path and reports every violation of an entry with a stable code. It takes the
// fields it knows from these schemas (`entryFields`), so a field added here is a field the
// validator accepts, and a field it accepts is documented. url-entry.schema.spec.ts checks that
// generated entries the validator accepts pass these schemas too (values in canonical case:
// the validator also takes `Daily` for `daily`), and that entries both refuse are refused by both.
import { z } from 'zod';
import {
  MAX_CLUSTER_SIZE,
  MAX_IMAGES_PER_URL,
  MAX_URL_LENGTH,
  MAX_VIDEO_DESCRIPTION_LENGTH,
  MAX_VIDEO_DURATION,
  MAX_VIDEO_RATING,
  MAX_VIDEO_TAGS,
  MAX_VIDEO_TITLE_LENGTH,
  MAX_VIDEO_UPLOADER_LENGTH,
  MIN_LOC_LENGTH,
  MIN_VIDEO_DURATION,
} from './limits';
import { CHANGEFREQS } from './sitemap-xml.types';

/** Retired by Google: accepted with a RETIRED_TAG warning, never written. */
export const RETIRED_IMAGE_FIELDS = ['caption', 'title', 'geoLocation', 'license'] as const;
export const RETIRED_VIDEO_FIELDS = ['category', 'galleryLoc', 'price', 'tvshow', 'allowEmbed', 'autoplay'] as const;
/** news:keywords, news:genres, news:stock_tickers and news:access, which Google News no longer reads. */
export const RETIRED_NEWS_FIELDS = ['keywords', 'genres', 'stockTickers', 'access'] as const;

const W3C_DATETIME = 'W3C datetime: YYYY-MM-DD, or YYYY-MM-DDThh:mm[:ss[.s]] with Z or ±hh:mm';
const url = (what: string) => z.string().min(1).max(MAX_URL_LENGTH).describe(`${what}: an absolute http(s) URL`);
const relationship = z.enum(['allow', 'deny']).describe('case-insensitive');

export const alternateSchema = z
  .object({
    hreflang: z.string().min(1).describe('`en`, `en-GB`, `zh-Hant-TW` or `x-default` (case-insensitive)'),
    href: url('the page in that language; may be on another host'),
  })
  .strict()
  .describe('one member of an hreflang cluster');

const retired = (fields: readonly string[]) =>
  Object.fromEntries(
    fields.map((field) => [
      field,
      z
        .unknown()
        .optional()
        .meta({ deprecated: true, description: 'retired by Google: accepted with a warning, not written' }),
    ]),
  );

export const imageSchema = z
  .object({ loc: url('the image; may be on a CDN host'), ...retired(RETIRED_IMAGE_FIELDS) })
  .strict()
  .describe('an image on the page (Google image sitemap)');

export const videoRestrictionSchema = z
  .object({
    relationship,
    countries: z.array(z.string().length(2).describe('ISO 3166-1 alpha-2')).min(1),
  })
  .strict();
export const videoPlatformSchema = z
  .object({
    relationship,
    platforms: z
      .array(z.enum(['web', 'mobile', 'tv']))
      .min(1)
      .describe('case-insensitive'),
  })
  .strict();
export const videoUploaderSchema = z
  .object({
    name: z.string().min(1).max(MAX_VIDEO_UPLOADER_LENGTH),
    info: url("the uploader's page").optional(),
  })
  .strict();

export const videoSchema = z
  .object({
    thumbnailLoc: url('the thumbnail'),
    title: z.string().min(1).max(MAX_VIDEO_TITLE_LENGTH),
    description: z.string().min(1).max(MAX_VIDEO_DESCRIPTION_LENGTH),
    contentLoc: url('the video file')
      .optional()
      .describe('contentLoc or playerLoc is required; neither may be the page itself'),
    playerLoc: url('the player').optional(),
    duration: z.number().int().min(MIN_VIDEO_DURATION).max(MAX_VIDEO_DURATION).optional().describe('seconds'),
    expirationDate: z.string().optional().describe(W3C_DATETIME),
    rating: z.number().min(0).max(MAX_VIDEO_RATING).optional(),
    viewCount: z.number().int().min(0).optional(),
    publicationDate: z.string().optional().describe(W3C_DATETIME),
    familyFriendly: z.boolean().optional(),
    restriction: videoRestrictionSchema.optional(),
    platform: videoPlatformSchema.optional(),
    requiresSubscription: z.boolean().optional(),
    uploader: videoUploaderSchema.optional(),
    live: z.boolean().optional(),
    tags: z.array(z.string()).max(MAX_VIDEO_TAGS).optional(),
    ...retired(RETIRED_VIDEO_FIELDS),
  })
  .strict()
  .describe('a video on the page (Google video sitemap)');

export const newsSchema = z
  .object({
    publicationName: z.string().min(1),
    publicationLanguage: z.string().min(2).describe('ISO 639 code; zh-cn or zh-tw for Chinese'),
    publicationDate: z.string().min(10).describe(`${W3C_DATETIME}; at least a full date`),
    title: z.string().min(1),
    ...retired(RETIRED_NEWS_FIELDS),
  })
  .strict()
  .describe('a Google News article');

/** Fields of the sitemap protocol and Google's extensions: what `normalizeUrlEntry` reads. */
export const entryFields = {
  loc: z.string().min(MIN_LOC_LENGTH).max(MAX_URL_LENGTH).describe("absolute URL on the site's scheme and host"),
  lastmod: z
    .string()
    .optional()
    .describe(
      `${W3C_DATETIME}; when absent, none is written until the platform sees the content change, then that moment`,
    ),
  changefreq: z.enum(CHANGEFREQS).optional().describe('case-insensitive'),
  priority: z.number().min(0).max(1).optional().describe('kept to three decimals (0.55 stays 0.55)'),
  section: z.string().optional().describe('groups URLs into their own sitemap files'),
  alternates: z.array(alternateSchema).max(MAX_CLUSTER_SIZE).optional().describe('the hreflang cluster; [] leaves it'),
  images: z.array(imageSchema).max(MAX_IMAGES_PER_URL).optional(),
  videos: z.array(videoSchema).optional(),
  news: newsSchema.optional(),
};

/**
 * A URL entry as a client sends it: the protocol's fields, `hreflang`, the URL's own language
 * in the cluster `alternates` declares, and `excluded` (the platform's, not the protocol's).
 */
export const urlEntrySchema = z
  .object({
    ...entryFields,
    hreflang: z.string().optional().describe("this URL's own language in its cluster"),
    excluded: z
      .boolean()
      .optional()
      .describe('true: stored, but in no published file and no hreflang link; false: published again; absent: left'),
  })
  .strict();
export type UrlEntryInput = z.input<typeof urlEntrySchema>;
