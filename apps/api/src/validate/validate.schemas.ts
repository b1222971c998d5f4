import { z } from 'zod';
import { VALIDATION_RULES } from '@sitemaps/sitemap-xml';

export const validateUrlInput = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2_048)
      .describe('a sitemap or sitemap index to fetch (public addresses only, as the import)'),
    follow: z.boolean().default(false).describe('an index: also fetch and check every sitemap it lists'),
  })
  .strict()
  .meta({ id: 'ValidationRequest' });

const problem = z
  .object({
    file: z.string(),
    line: z.number().int().optional(),
    rule: z.enum(
      Object.keys(VALIDATION_RULES) as [keyof typeof VALIDATION_RULES, ...(keyof typeof VALIDATION_RULES)[]],
    ),
    message: z.string(),
  })
  .meta({ id: 'ValidationProblem' });

export const validationView = z
  .object({
    valid: z.boolean().describe('no problem in any file'),
    files: z.array(
      z
        .object({
          file: z.string().describe('the URL, or "upload"'),
          kind: z.enum(['urlset', 'sitemapindex', 'text']).nullable(),
          entries: z.number().int(),
          bytes: z.number().int().describe('uncompressed'),
          problems: z.array(problem),
        })
        .meta({ id: 'ValidationFile' }),
    ),
  })
  .meta({ id: 'Validation' });
export type ValidationView = z.output<typeof validationView>;
