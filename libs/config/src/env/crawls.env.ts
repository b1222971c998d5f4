// Crawl insight: counting crawlers' reads of the sitemap files.
import { z } from 'zod';

export const crawlsEnv = {
  /** `on`: the public server counts fetches of sitemap files per crawler and verifies crawlers by DNS. */
  CRAWL_INSIGHT: z.enum(['on', 'off']).default('on').meta({
    description:
      '`on`: the public server counts fetches of robots.txt, the index, shards and text files per crawler and checks crawlers by DNS (see Crawl insight); `off`: nothing is counted',
  }),
  /** How often each public server process adds its counts to Postgres. */
  CRAWL_FLUSH_MS: z.coerce.number().int().min(50).default(5_000).meta({
    description: 'how often each public server process adds its crawl counts to Postgres',
  }),
  /** Hourly crawl counts older than this are deleted, and reads of files no longer published. */
  CRAWL_RETENTION_DAYS: z.coerce.number().int().min(1).default(90).meta({
    description:
      'hourly crawl counts older than this are deleted, with the last reads and stale notices of files no longer published',
  }),
  /** How often the worker emits sitemap.first_crawl events and applies the retention. */
  CRAWL_EVENTS_EVERY_MS: z.coerce.number().int().min(100).default(60_000).meta({
    description: 'how often the worker emits `sitemap.first_crawl` and applies the retention',
  }),
  /** How often the worker looks for shards unread past their site's staleAfterDays (sitemap.stale). */
  CRAWL_STALE_EVERY_MS: z.coerce.number().int().min(100).max(86_400_000).default(3_600_000).meta({
    description:
      "how often the worker looks for changed shards unread past their site's `staleAfterDays` (`sitemap.stale`)",
  }),
  /** How long the public server keeps a crawler address's forward-confirmed reverse DNS verdict. */
  CRAWL_VERDICT_TTL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(86_400_000)
    .meta({ description: "how long the public server keeps a crawler address's reverse-DNS verdict" }),
  /** How long it keeps a failed verdict (a DNS outage among the reasons), at most CRAWL_VERDICT_TTL_MS. */
  CRAWL_FAILED_VERDICT_TTL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(3_600_000)
    .meta({
      description: 'how long it keeps a failed verdict (a DNS outage among the reasons), at most CRAWL_VERDICT_TTL_MS',
    }),
};
