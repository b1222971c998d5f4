// Webhook deliveries: retries, timeouts, which addresses they may reach.
import { z } from 'zod';
import { flag } from './env-types';

export const webhooksEnv = {
  /** Webhook deliveries: attempts each (the first included), the first retry's delay (doubling after), one request's timeout. */
  WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(10).meta({
    description:
      "attempts per webhook delivery (the first included); the first retry's delay, doubling after (±20% jitter): about 85 minutes in all",
  }),
  WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(10).default(10_000).meta({ docWith: 'WEBHOOK_ATTEMPTS' }),
  WEBHOOK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(15_000)
    .meta({ description: 'one delivery request, answer included' }),
  /** Deliveries that fail for good in a row before the platform disables their endpoint. */
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).default(5).meta({
    description: 'deliveries that fail for good in a row before the platform disables their endpoint',
  }),
  /** Endpoints are customer URLs: private, loopback and link-local addresses are refused unless
   *  this is set (tests receive webhooks on 127.0.0.1). */
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag.default(false).meta({
    description: 'let webhook endpoints be private, loopback or link-local addresses (tests only)',
  }),
};
