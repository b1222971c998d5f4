// Standard Webhooks signing (https://www.standardwebhooks.com, spec/standard-webhooks.md):
// HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, sent as
// `webhook-signature: v1,<base64>`; secrets are `whsec_` + base64 of 24–64 random bytes.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The spec asks for at least 24 bytes and at most 64. */
export const WEBHOOK_SECRET_BYTES = { min: 24, max: 64, generated: 32 } as const;

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(WEBHOOK_SECRET_BYTES.generated).toString('base64')}`;
}

/** Whether a secret an owner sets is one the spec allows: `whsec_` + base64 of 24–64 bytes. */
export function isValidWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return false;
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return false;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes >= WEBHOOK_SECRET_BYTES.min && bytes <= WEBHOOK_SECRET_BYTES.max;
}

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one attempt; the timestamp is the attempt's, the id the event's. */
export function signWebhook(secret: string, eventId: string, body: string, at: Date): WebhookHeaders {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, body),
  };
}
