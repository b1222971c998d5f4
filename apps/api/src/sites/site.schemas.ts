import { z } from 'zod';
import {
  MAX_SHARD_SIZE,
  MAX_STALE_AFTER_DAYS,
  MIN_SHARD_SIZE,
  MIN_STALE_AFTER_DAYS,
  VERIFICATION_STATUSES,
  type VerificationStatus,
} from '@sitemaps/domain';
import { CHANGEFREQS } from '@sitemaps/sitemap-xml';

const sectionShardSize = z
  .object({
    section: z.string().max(40).describe('"" is the default section'),
    shardSize: z.number().int().min(MIN_SHARD_SIZE).max(MAX_SHARD_SIZE),
  })
  .strict()
  .meta({ id: 'SectionShardSize' });

const siteFields = {
  hostname: z.string().min(1).max(253),
  scheme: z.enum(['http', 'https']).optional(),
  defaultChangefreq: z.enum(CHANGEFREQS).nullable().optional(),
  defaultPriority: z.number().min(0).max(1).nullable().optional(),
  rebuildCron: z
    .string()
    .max(100)
    .nullable()
    .optional()
    .describe('5-field cron (UTC) for a scheduled full rebuild; null: none'),
  robotsTxt: z
    .string()
    .nullable()
    .optional()
    .describe("the site's own robots.txt rules; the platform appends its Sitemap: lines"),
  robotsTxtNonStandard: z.boolean().optional().describe('allow lines only some engines read (Host:, Clean-param:)'),
  cacheMaxAge: z.number().int().min(0).max(31_536_000).optional(),
  textSitemap: z.boolean().optional().describe('also publish /sitemap.txt'),
  xslStylesheet: z
    .boolean()
    .optional()
    .describe('the index and shards name /sitemap.xsl, so a browser shows them as a sortable table'),
  shardSize: z
    .number()
    .int()
    .min(MIN_SHARD_SIZE)
    .max(MAX_SHARD_SIZE)
    .nullable()
    .optional()
    .describe('URLs per sitemap file for new shards; null: 50,000. Files already published keep their URLs'),
  sectionShardSizes: z
    .array(sectionShardSize)
    .max(100)
    .optional()
    .describe('URLs per file by section, over shardSize; replaces the whole list'),
  staleAfterDays: z
    .number()
    .int()
    .min(MIN_STALE_AFTER_DAYS)
    .max(MAX_STALE_AFTER_DAYS)
    .nullable()
    .optional()
    .describe('send sitemap.stale for a changed shard no verified crawler read within this many days; null: never'),
};
export const createSiteInput = z.object(siteFields).strict().meta({ id: 'SiteCreate' });
export const updateSiteInput = z.object(siteFields).partial().strict().meta({ id: 'SiteUpdate' });

export const siteVerificationView = z.object({
  status: z
    .enum(VERIFICATION_STATUSES as [VerificationStatus, ...VerificationStatus[]])
    .describe(
      'pending: not served until the hostname is proven; verified: served; taken: another account verified the hostname first',
    ),
  token: z.string().describe('publish it as the TXT record or the file below'),
  dnsRecord: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
  fileUrl: z.string().describe('or serve the token in this file (http or https)'),
  verifiedAt: z.date().nullable(),
  checkedAt: z.date().nullable().describe('last check'),
  nextCheckAt: z
    .date()
    .nullable()
    .describe('next scheduled check; null: none (taken, or verified without proof in development mode)'),
  error: z
    .object({ code: z.string(), message: z.string() })
    .nullable()
    .describe('why the last check failed (PROOF_NOT_FOUND, VERIFICATION_LOST, HOSTNAME_VERIFIED_ELSEWHERE)'),
});
export type SiteVerificationView = z.output<typeof siteVerificationView>;

export const siteView = z
  .object({
    id: z.uuid(),
    hostname: z.string(),
    scheme: z.string(),
    defaultChangefreq: z.string().nullable(),
    defaultPriority: z.number().nullable(),
    rebuildCron: z.string().nullable(),
    robotsTxt: z.string().nullable(),
    cacheMaxAge: z.number().int(),
    textSitemap: z.boolean(),
    xslStylesheet: z.boolean(),
    shardSize: z.number().int().nullable(),
    sectionShardSizes: z.array(sectionShardSize),
    staleAfterDays: z.number().int().nullable(),
    indexNowKey: z.string(),
    sitemapUrl: z.string(),
    crossSubmitRobotsLine: z
      .string()
      .nullable()
      .describe('for sites that keep their own robots.txt: the line that authorises the platform-hosted index'),
    verification: siteVerificationView,
    createdAt: z.date(),
    updatedAt: z.date(),
  })
  .meta({ id: 'Site' });
export type SiteView = z.output<typeof siteView>;

export const scheduleView = z
  .object({ rebuildCron: z.string().nullable(), nextRunAt: z.date().nullable() })
  .meta({ id: 'SiteSchedule' });
