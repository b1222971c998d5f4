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
  /** Hourly crawl counts (and reads of files not read since) older than this are deleted. */
  CRAWL_RETENTION_DAYS: z.coerce.number().int().min(1).default(90).meta({
    description: 'hourly crawl counts older than this are deleted (and last reads of files no crawler has read since)',
  }),
  /** How often the worker emits sitemap.first_crawl events and applies the retention. */
  CRAWL_EVENTS_EVERY_MS: z.coerce.number().int().min(100).default(60_000).meta({
    description: 'how often the worker emits `sitemap.first_crawl` and applies the retention',
  }),
};
