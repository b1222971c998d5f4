import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, webhookEvent } from '@sitemaps/domain';

const url = z
  .url({ protocol: /^https?$/ })
  .max(2_048)
  .describe('where events are POSTed (http or https)');
const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .describe(`events to deliver: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
const secret = z.string().max(200).describe('`whsec_` + base64 of 24–64 random bytes; generated when omitted');

export const createWebhookInput = z
  .object({ url, eventTypes, secret: secret.optional(), enabled: z.boolean().optional() })
  .strict();
export const updateWebhookInput = z
  .object({
    url,
    eventTypes,
    secret,
    enabled: z.boolean().describe('true re-enables an endpoint the platform disabled, clearing its failure count'),
  })
  .partial()
  .strict();

export const webhookView = z.object({
  id: z.uuid(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  enabled: z.boolean(),
  consecutiveFailures: z.number().int().describe('deliveries that failed for good in a row'),
  disabledAt: z.date().nullable(),
  disabledReason: z
    .enum(['owner', 'failures', 'gone'])
    .nullable()
    .describe('failures: disabled by the platform after sustained failure; gone: the endpoint answered 410'),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type WebhookView = z.output<typeof webhookView>;

export const createdWebhookView = webhookView.extend({
  secret: z
    .string()
    .optional()
    .describe('the signing secret; shown only in this answer, and absent from an Idempotency-Key replay'),
});

export const deliveryView = z.object({
  id: z.uuid(),
  webhookId: z.uuid(),
  eventId: z.string().describe('the webhook-id header: the same for every attempt'),
  eventType: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable().describe("the last attempt's HTTP status; null: no answer"),
  latencyMs: z.number().int().nullable().describe("the last attempt's duration"),
  error: z.string().nullable(),
  createdAt: z.date(),
  lastAttemptAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  event: webhookEvent.describe('the body as signed and sent'),
});
export type DeliveryView = z.output<typeof deliveryView>;

export const testDeliveryView = deliveryView.pick({ id: true, eventId: true, status: true });
