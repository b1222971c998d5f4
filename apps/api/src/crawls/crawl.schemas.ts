import { z } from 'zod';
import { CRAWLERS } from '@sitemaps/domain';

const crawler = z.enum(CRAWLERS);

export const crawlInsightQuery = z
  .object({
    days: z.coerce.number().int().min(1).max(366).default(30).describe('days of counts and errors, up to today'),
  })
  .strict();

export const crawlInsightView = z
  .object({
    siteId: z.uuid(),
    crawlers: z
      .array(
        z.object({
          crawler,
          firstReadAt: z.date().describe('its first verified read of the index'),
          lastReadAt: z.date().describe('its last verified read of the index'),
        }),
      )
      .describe('verified crawlers (forward-confirmed reverse DNS) that have read the index'),
    files: z
      .array(
        z.object({
          path: z.string(),
          kind: z.enum(['index', 'shard', 'text']),
          modifiedAt: z.date().nullable().describe('when the bytes at this path last changed'),
          reads: z.array(
            z.object({
              crawler,
              lastReadAt: z.date(),
              readSinceChange: z.boolean().describe('read (200 or 304) since the file last changed'),
            }),
          ),
          waitingFor: z.array(crawler).describe('crawlers that read the index but not this file since it changed'),
        }),
      )
      .describe('the published files, the index first'),
    lastChange: z
      .object({
        at: z.date().describe("when the index's bytes last changed (a publish that changed something)"),
        firstVerifiedReadAt: z.date().nullable(),
        crawler: crawler.nullable(),
        delaySeconds: z.number().nullable().describe('from the change to the first verified read of the index'),
      })
      .nullable(),
    days: z.array(
      z.object({
        day: z.string().describe('UTC date, YYYY-MM-DD'),
        crawler,
        verified: z.boolean(),
        fetches: z.number().int(),
        notModified: z.number().int().describe('of which answered 304'),
        bytes: z.number(),
      }),
    ),
    errors: z
      .array(
        z.object({
          path: z.string(),
          status: z.number().int(),
          crawler,
          verified: z.boolean(),
          fetches: z.number().int(),
          lastAt: z.date(),
        }),
      )
      .describe('4xx and 5xx answers to crawlers (old file names, failures), newest first'),
  })
  .meta({ id: 'CrawlInsight' });
export type CrawlInsightView = z.output<typeof crawlInsightView>;

export const crawlTotalsView = z
  .object({
    days: z.array(
      z.object({
        day: z.string().describe('UTC date, YYYY-MM-DD'),
        crawler,
        verified: z.boolean(),
        fetches: z.number().int(),
        notModified: z.number().int(),
        bytes: z.number(),
        sites: z.number().int().describe('sites fetched'),
      }),
    ),
  })
  .meta({ id: 'CrawlTotals' });
export type CrawlTotalsView = z.output<typeof crawlTotalsView>;
