import { z } from 'zod';

export const createBuildInput = z
  .object({ full: z.boolean().default(false).describe('re-render every shard, not only dirty ones') })
  .strict()
  .meta({ id: 'BuildCreate' });

export const buildView = z
  .object({
    id: z.uuid(),
    siteId: z.uuid(),
    status: z.enum(['queued', 'running', 'published', 'failed']).meta({ id: 'BuildStatus' }),
    full: z.boolean(),
    trigger: z.string().describe('api | schedule | change'),
    shardsRendered: z.number().int(),
    shardsSkipped: z.number().int(),
    urlCount: z.number().int(),
    byteSize: z.number().int(),
    timings: z.unknown().describe('stage durations in milliseconds'),
    indexNow: z
      .unknown()
      .describe(
        'IndexNow submissions after the publish: one entry per request (endpoint, status, url count, attempt); [] when nothing changed, null before the check',
      ),
    error: z.string().nullable(),
    createdAt: z.date(),
    startedAt: z.date().nullable(),
    finishedAt: z.date().nullable(),
  })
  .meta({ id: 'Build' });
export type BuildView = z.output<typeof buildView>;

export const createdBuildView = z
  .object({ buildId: z.uuid(), status: buildView.shape.status })
  .meta({ id: 'BuildQueued' });
