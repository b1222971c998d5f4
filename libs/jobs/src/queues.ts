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
  /** One attempt series per webhook delivery (an event for one endpoint). */
  webhook: 'webhook',
  /** Checks hostname proofs (DNS TXT, HTTP file) of sites due for a check. */
  verification: 'verification',
  /** Invitation and password-reset emails, sent by the worker after the API stored their rows. */
  mail: 'mail',
} as const;
export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

export const JOB = {
  planBuild: 'plan-build',
  renderShard: 'render-shard',
  publishBuild: 'publish-build',
  submitIndexNow: 'submit-indexnow',
  /** After a publish: turns the site's changed URLs into submit-indexnow jobs. */
  drainIndexNow: 'drain-indexnow',
  collectGarbage: 'collect-garbage',
  refreshNews: 'refresh-news',
  compactShards: 'compact-shards',
  /** Emits sitemap.first_crawl for new verified index reads, and deletes crawl counts past their retention. */
  crawlEvents: 'crawl-events',
  /** Emits sitemap.stale for shards no verified crawler read within their site's staleAfterDays. */
  staleShards: 'stale-shards',
  /** Fetches a site's existing sitemaps (robots.txt, index, files) and imports their entries. */
  importSitemaps: 'import-sitemaps',
  /** Signs and POSTs one delivery to its endpoint; retried with backoff until it succeeds or runs out. */
  deliverWebhook: 'deliver-webhook',
  /** Checks one site's proof of its hostname and records the outcome. */
  verifySite: 'verify-site',
  /** On a schedule: queues a verify-site job for every site whose check is due. */
  sweepVerification: 'sweep-verification',
  /** After a site (or its tenant) is deleted: removes its files from the store (maintenance queue). */
  removeSiteFiles: 'remove-site-files',
  /** Mints an invitation's token and mails its link (queue mail). */
  mailInvitation: 'mail-invitation',
  /** Mints a password reset's token and mails its link (queue mail). */
  mailPasswordReset: 'mail-password-reset',
} as const;

/** The jobs of the maintenance queue, each on its own schedule. */
export const MAINTENANCE_JOBS = [
  JOB.collectGarbage,
  JOB.refreshNews,
  JOB.compactShards,
  JOB.crawlEvents,
  JOB.staleShards,
] as const;
export type MaintenanceJob = (typeof MAINTENANCE_JOBS)[number];
export const maintenancePayload = z.object({ v: z.literal(1) });

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

const instant = z.iso.datetime();

/**
 * The changed URLs of a publish: `updated_at` in (from, until], `from` the site's IndexNow cursor
 * when the publish was announced (null: never submitted), `until` the publish moment. Fixed in
 * the job, so a retried drain derives the same batches.
 */
export const drainIndexNowPayload = z.object({
  v: z.literal(1),
  siteId: uuid,
  buildId: uuid,
  from: instant.nullable(),
  until: instant,
});
export type DrainIndexNowPayload = z.infer<typeof drainIndexNowPayload>;

/**
 * One request to one endpoint: the window's URLs on `host` with ids in [firstId, lastId], at most
 * 10,000. The submitter re-reads them, so the job stays small whatever the batch size.
 */
export const submitIndexNowPayload = z.object({
  v: z.literal(1),
  siteId: uuid,
  buildId: uuid,
  batch: z.number().int().min(1),
  endpoint: z.url({ protocol: /^https?$/ }),
  host: z.string().min(1).max(253),
  from: instant.nullable(),
  until: instant,
  firstId: z.string().regex(/^\d+$/),
  lastId: z.string().regex(/^\d+$/),
});
export type SubmitIndexNowPayload = z.infer<typeof submitIndexNowPayload>;

/** The import row (created by the API, status queued) says where to start. */
export const importSitemapsPayload = z.object({ v: z.literal(1), siteId: uuid, importId: uuid });
export type ImportSitemapsPayload = z.infer<typeof importSitemapsPayload>;

/** The delivery row (event body, endpoint) is the record; the job only names it. */
export const deliverWebhookPayload = z.object({ v: z.literal(1), deliveryId: uuid });
export type DeliverWebhookPayload = z.infer<typeof deliverWebhookPayload>;
export const verifySitePayload = z.object({ v: z.literal(1), siteId: uuid });
/** A deleted site: its row is gone, its files go. */
export const removeSiteFilesPayload = z.object({ v: z.literal(1), siteId: uuid });
export type RemoveSiteFilesPayload = z.infer<typeof removeSiteFilesPayload>;
export type VerifySitePayload = z.infer<typeof verifySitePayload>;

/**
 * An email to send names its row only: the worker mints the link's token when it sends (the row
 * keeps its sha256), so no token that signs anybody in ever sits in Redis.
 */
export const mailPayload = z.discriminatedUnion('kind', [
  z.object({ v: z.literal(1), kind: z.literal('invitation'), invitationId: uuid }),
  z.object({ v: z.literal(1), kind: z.literal('password-reset'), resetId: uuid }),
]);
export type MailPayload = z.infer<typeof mailPayload>;

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
  crawlEvents: 'crawl-events',
  staleShards: 'stale-shards',
  drainIndexNow: (buildId: string) => `indexnow-drain-${buildId}`,
  /** Endpoints by a short hash of their URL: stable when the configured list is reordered. */
  submitIndexNow: (buildId: string, batch: number, endpointHash: string) =>
    `indexnow-${buildId}-${batch}-${endpointHash}`,
  importSitemaps: (importId: string) => `import-${importId}`,
  deliverWebhook: (deliveryId: string) => `webhook-${deliveryId}`,
  /** A de-duplication id: one check of a site waits or runs at a time. */
  verifySite: (siteId: string) => `verify-${siteId}`,
  sweepVerification: 'sweep-verification',
  /** One removal per deleted site, however often its deletion is reported. */
  removeSiteFiles: (siteId: string) => `site-files-${siteId}`,
  /** One email per invitation or reset row, however often it is queued. */
  mailInvitation: (invitationId: string) => `mail-invitation-${invitationId}`,
  mailPasswordReset: (resetId: string) => `mail-reset-${resetId}`,
};
