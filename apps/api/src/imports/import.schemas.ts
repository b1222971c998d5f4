import { z } from 'zod';
import { cursorQuery } from '../common/pagination';

export const importQuery = z.object({
  mode: z
    .enum(['upsert', 'replace'])
    .default('upsert')
    .describe('replace: URLs absent from the upload are deleted when it completes'),
  format: z.enum(['ndjson', 'csv']).optional().describe('default: from Content-Type (application/x-ndjson, text/csv)'),
});

export const sitemapImportInput = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2_048)
      .describe('a robots.txt, sitemap index or sitemap URL'),
  })
  .strict()
  .meta({ id: 'SitemapImportCreate' });

export const importView = z
  .object({
    id: z.uuid(),
    siteId: z.uuid(),
    source: z.enum(['upload', 'sitemaps']),
    format: z.enum(['ndjson', 'csv', 'sitemap']),
    mode: z.enum(['upsert', 'replace']),
    status: z.enum(['queued', 'running', 'completed', 'failed']).meta({ id: 'ImportStatus' }),
    sourceUrl: z.string().nullable(),
    linesRead: z.number().int().describe('lines (or sitemap entries) read so far'),
    stored: z.number().int().describe('valid lines stored (changed or already equal)'),
    rejected: z.number().int().describe('lines rejected; see …/rejections'),
    warnings: z.number().int().describe('repairs made to stored lines (sitemaps imports); see …/warnings'),
    changed: z.number().int().describe('URLs whose sitemap content changed'),
    deleted: z.number().int().describe('URLs a completed replace deleted'),
    error: z.string().nullable(),
    createdAt: z.date(),
    startedAt: z.date().nullable(),
    finishedAt: z.date().nullable(),
  })
  .meta({ id: 'Import' });
export type ImportView = z.output<typeof importView>;

export const uploadResultView = z
  .object({
    importId: z.uuid(),
    status: importView.shape.status,
    mode: importView.shape.mode,
    linesRead: z.number().int(),
    stored: z.number().int(),
    rejected: z.number().int(),
    warnings: z.number().int(),
    changed: z.number().int(),
    deleted: z.number().int(),
  })
  .meta({ id: 'ImportResult' });

export const rejectionView = z
  .object({
    line: z
      .number()
      .int()
      .describe(
        '1-based line of the upload (a CSV header is line 1); sitemaps: the entry in its file, 0 for a whole file',
      ),
    code: z.string(),
    field: z.string(),
    reason: z.string(),
    source: z.string().nullable().describe('sitemaps: the file'),
  })
  .meta({ id: 'ImportRejection' });
export type RejectionView = z.output<typeof rejectionView>;

/** A repair made to a line that was stored: the same shape and codes as a rejection. */
export const warningView = rejectionView.extend({
  reason: z.string().describe('what the line said, and what was kept'),
});
export type WarningView = z.output<typeof warningView>;

export const rejectionsQuery = cursorQuery;
