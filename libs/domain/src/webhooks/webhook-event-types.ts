// The names of the webhook events, with no import: the console's browser bundle takes the list
// from here (apps/console/src/enums.ts), the event schemas in webhook-event.ts use it too.

export const WEBHOOK_EVENT_TYPES = [
  'build.published',
  'build.failed',
  'import.finished',
  'site.verified',
  'site.verification_lost',
  'sitemap.first_crawl',
  'sitemap.stale',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Sent only by "send test event": endpoints do not subscribe to it. */
export const TEST_EVENT_TYPE = 'webhook.test';
