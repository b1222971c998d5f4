// Queue and job names are stored contracts (they live in Redis across deploys): defined here
// once, never renamed, never derived from class names.
import { z } from 'zod';

export const QUEUE = {
  /** Plans a site's build: which shards to render; adds the render/publish flow. */
  build: 'build',
  /** Renders one shard to a stored file. Children of a publish job. */
  shard: 'shard',
  /** Writes the index and switches the manifest once every shard of a build is rendered. */
  publish: 'publish',
  indexnow: 'indexnow',
  maintenance: 'maintenance',
  import: 'import',
} as const;
export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

export const JOB = {
  planBuild: 'plan-build',
  renderShard: 'render-shard',
  publishBuild: 'publish-build',
  submitIndexNow: 'submit-indexnow',
  collectGarbage: 'collect-garbage',
  refreshNews: 'refresh-news',
  compactShards: 'compact-shards',
} as const;

const uuid = z.uuid();

export const planBuildPayload = z.object({
  v: z.literal(1),
  siteId: uuid,
  /** Set when the API created the build row; a change-triggered build creates its own. */
  buildId: uuid.optional(),
  full: z.boolean(),
  trigger: z.enum(['api', 'schedule', 'change']),
});
export type PlanBuildPayload = z.infer<typeof planBuildPayload>;

export const renderShardPayload = z.object({
  v: z.literal(1),
  siteId: uuid,
  buildId: uuid,
  shardId: z.string().regex(/^\d+$/),
});
export type RenderShardPayload = z.infer<typeof renderShardPayload>;

export const publishBuildPayload = z.object({ v: z.literal(1), siteId: uuid, buildId: uuid });
export type PublishBuildPayload = z.infer<typeof publishBuildPayload>;

// Job ids are deterministic so a retried or doubled enqueue is one job. BullMQ forbids ':' in
// custom ids and all-digit ids.
export const jobId = {
  planBuild: (buildId: string) => `build-${buildId}`,
  renderShard: (buildId: string, shardId: string) => `render-${buildId}-${shardId}`,
  publishBuild: (buildId: string) => `publish-${buildId}`,
  siteChanges: (siteId: string) => `changes-${siteId}`,
  siteSchedule: (siteId: string) => `rebuild-${siteId}`,
  collectGarbage: 'collect-garbage',
  refreshNews: 'refresh-news',
  compactShards: 'compact-shards',
};
