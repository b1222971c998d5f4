// The events a tenant can receive at its webhook endpoints: one envelope (Standard Webhooks'
// recommended `type`, `timestamp`, `data`, plus the event's `id`, which is also the
// `webhook-id` header), one schema per type. The REST API, GraphQL and the delivery all use
// this schema, so what a delivery log shows is what was signed and sent.
import { z } from 'zod';
import { TEST_EVENT_TYPE, type WebhookEventType } from './webhook-event-types';

export { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-event-types';

const uuid = z.uuid();
const instant = z.iso.datetime();

const buildData = z.object({
  siteId: uuid,
  buildId: uuid,
  status: z.enum(['published', 'failed']),
  /** Why the build failed; null when it published. */
  error: z.string().nullable(),
});

const importData = z.object({
  siteId: uuid,
  importId: uuid,
  source: z.enum(['upload', 'sitemaps']),
  status: z.enum(['completed', 'failed']),
  stored: z.number().int(),
  rejected: z.number().int(),
  changed: z.number().int(),
  deleted: z.number().int(),
  error: z.string().nullable(),
});

const siteData = z.object({
  siteId: uuid,
  hostname: z.string(),
  /** Why verification was lost (the last check's finding); null for site.verified. */
  reason: z.string().nullable(),
});

const firstCrawlData = z.object({
  siteId: uuid,
  /** The verified crawler (reverse DNS, forward-confirmed) that read the index. */
  crawler: z.string(),
  path: z.string(),
  readAt: instant,
});

const staleData = z.object({
  siteId: uuid,
  /** The shard file no verified crawler has read since its bytes changed. */
  path: z.string(),
  /** When its bytes changed: the version of the shard the event is about. */
  modifiedAt: instant,
  /** The last verified read of the path (an older version); null: never read. */
  lastReadAt: instant.nullable(),
  /** The site's setting when the event was sent. */
  staleAfterDays: z.number().int(),
});

const testData = z.object({ endpointId: uuid, message: z.string() });

/** Event ids: `evt_` and what the event is about, so re-emitting one event yields the same id (no `.`: the spec signs `id.timestamp.body`). */
const eventId = z.string().regex(/^evt_[A-Za-z0-9_-]{1,200}$/);

const envelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({ id: eventId, type: z.literal(type), timestamp: instant, data }).strict();

export const webhookEvent = z.discriminatedUnion('type', [
  envelope('build.published', buildData),
  envelope('build.failed', buildData),
  envelope('import.finished', importData),
  envelope('site.verified', siteData),
  envelope('site.verification_lost', siteData),
  envelope('sitemap.first_crawl', firstCrawlData),
  envelope('sitemap.stale', staleData),
  envelope(TEST_EVENT_TYPE, testData),
]);
export type WebhookEvent = z.infer<typeof webhookEvent>;
/** An event as code emits it: the timestamp defaults to now. */
export type NewWebhookEvent = WebhookEvent extends infer E
  ? E extends WebhookEvent
    ? Omit<E, 'timestamp'> & { timestamp?: string }
    : never
  : never;

const compact = (value: string) => value.replace(/[^A-Za-z0-9_-]/g, '-');

/** The id of an event: the same facts give the same id, so a retried emit delivers nothing twice. */
export function webhookEventId(type: WebhookEventType | typeof TEST_EVENT_TYPE, ...about: string[]): string {
  return `evt_${compact(type)}_${about.map(compact).join('_')}`;
}

/** Parses an event (as stored or about to be sent); an event that does not parse is a bug, not input. */
export function parseWebhookEvent(value: unknown): WebhookEvent {
  return webhookEvent.parse(value);
}

// The events the platform emits, built in one place so every emitter says the same thing.

export function buildFinishedEvent(build: {
  siteId: string;
  buildId: string;
  status: 'published' | 'failed';
  error?: string | null;
}): NewWebhookEvent {
  const type = build.status === 'published' ? 'build.published' : 'build.failed';
  return {
    id: webhookEventId(type, build.buildId),
    type,
    data: { siteId: build.siteId, buildId: build.buildId, status: build.status, error: build.error ?? null },
  };
}

export function importFinishedEvent(
  siteId: string,
  source: 'upload' | 'sitemaps',
  result: {
    id: string;
    status: string;
    stored: number;
    rejected: number;
    changed: number;
    deleted: number;
    error: string | null;
  },
): NewWebhookEvent | undefined {
  if (result.status !== 'completed' && result.status !== 'failed') return undefined;
  const { id: importId, status, stored, rejected, changed, deleted, error } = result;
  return {
    id: webhookEventId('import.finished', importId),
    type: 'import.finished',
    data: { siteId, importId, source, status, stored, rejected, changed, deleted, error },
  };
}

/** `at`: when verification was gained or lost; a site can gain and lose it many times. */
export function siteVerificationEvent(
  type: 'site.verified' | 'site.verification_lost',
  site: { siteId: string; hostname: string },
  at: Date,
  reason: string | null = null,
): NewWebhookEvent {
  return {
    id: webhookEventId(type, site.siteId, String(at.getTime())),
    type,
    timestamp: at.toISOString(),
    data: { ...site, reason },
  };
}

/** A verified crawler read the site's index for the first time: once per site and crawler. */
export function firstCrawlEvent(crawl: {
  siteId: string;
  crawler: string;
  path: string;
  readAt: Date;
}): NewWebhookEvent {
  return {
    id: webhookEventId('sitemap.first_crawl', crawl.siteId, crawl.crawler),
    type: 'sitemap.first_crawl',
    data: { siteId: crawl.siteId, crawler: crawl.crawler, path: crawl.path, readAt: crawl.readAt.toISOString() },
  };
}
