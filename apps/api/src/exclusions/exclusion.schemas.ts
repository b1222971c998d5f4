import { z } from 'zod';
import { MAX_EXCLUSION_RULES } from '@sitemaps/domain';

// The rules' checks are libs/domain's (validateExclusionRules); these schemas document them.
export const exclusionRuleSchema = z
  .discriminatedUnion('kind', [
    z
      .object({ kind: z.literal('prefix'), path: z.string().min(1).max(500).describe('a path start: `/cart/`') })
      .strict(),
    z
      .object({
        kind: z.literal('glob'),
        pattern: z
          .string()
          .min(1)
          .max(500)
          .describe('the whole path and query, `*` any run of characters: `/cart/*`, `/*?sessionid=*`'),
      })
      .strict(),
    z
      .object({
        kind: z.literal('query'),
        param: z.string().min(1).max(500).describe('a query parameter, with or without a value: `sessionid`'),
      })
      .strict(),
  ])
  .meta({ id: 'ExclusionRule', description: "matched against each URL's loc" });

export const exclusionRulesInput = z
  .object({
    rules: z.array(exclusionRuleSchema).max(MAX_EXCLUSION_RULES).describe('replaces the whole set; [] clears it'),
  })
  .strict()
  .meta({ id: 'ExclusionRulesInput' });

export const exclusionsView = z
  .object({
    rules: z.array(
      z.object({
        rule: exclusionRuleSchema,
        excludedUrls: z.number().int().describe('live URLs the rule matches now'),
      }),
    ),
    flaggedUrls: z.number().int().describe('live URLs the client flagged `excluded: true`'),
  })
  .meta({ id: 'Exclusions' });
export type ExclusionsView = z.output<typeof exclusionsView>;

export const exclusionsChangeView = exclusionsView
  .extend({
    changed: z.object({
      urls: z.number().int().describe('live URLs that left or re-entered the published files'),
      shards: z.number().int().describe('shards to re-render: theirs and their hreflang peers'),
    }),
  })
  .meta({ id: 'ExclusionsChange' });
export type ExclusionsChangeView = z.output<typeof exclusionsChangeView>;

const conflictCode = z
  .enum(['ROBOTS_DISALLOWED', 'LASTMOD_IN_FUTURE', 'HREFLANG_TO_EXCLUDED', 'HREFLANG_TO_DISALLOWED'])
  .meta({ id: 'UrlConflictCode' });

export const conflictReportQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(0)
    .max(10_000)
    .default(1_000)
    .describe('conflicts listed at most (all are counted)'),
});

export const conflictReportView = z
  .object({
    checkedUrls: z.number().int(),
    counts: z
      .object({
        ROBOTS_DISALLOWED: z.number().int(),
        LASTMOD_IN_FUTURE: z.number().int(),
        HREFLANG_TO_EXCLUDED: z.number().int(),
        HREFLANG_TO_DISALLOWED: z.number().int(),
      })
      .describe('conflicts per code, over every live URL'),
    total: z.number().int(),
    conflicts: z.array(
      z
        .object({
          loc: z.string(),
          code: conflictCode,
          field: z.string().describe('`loc`, `lastmod` or `alternates[i].href`'),
          message: z.string(),
        })
        .meta({ id: 'UrlConflict' }),
    ),
    truncated: z.boolean().describe('more conflicts than listed'),
  })
  .meta({
    id: 'ConflictReport',
    description:
      "the site's live URLs against its own robots.txt (Googlebot), its exclusions and the clock: what to check before a launch",
  });
export type ConflictReportView = z.output<typeof conflictReportView>;
