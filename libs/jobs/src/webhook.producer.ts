// Emits webhook events: one delivery row per subscribed endpoint (the record), then one job per
// delivery. Called after the change the event reports has committed. Event ids are derived from
// what happened, so emitting one event twice (a retried publish) delivers it once.
import type { Queue } from 'bullmq';
import type { RedisConnection } from './connection';
import { createQueue } from './job-handlers';
import type { EventScope, WebhookRepository } from '@sitemaps/data';
import { parseWebhookEvent, TEST_EVENT_TYPE, webhookEventId, type NewWebhookEvent } from '@sitemaps/domain';
import { deliverWebhookPayload, JOB, jobId, QUEUE } from './queues';

/**
 * The webhook queue's backoff type: the worker's strategy for it waits as long as a receiver's
 * `Retry-After` asks, else backs off exponentially with the policy's delay and jitter.
 */
export const WEBHOOK_BACKOFF_TYPE = 'webhook';

export interface WebhookRetryPolicy {
  /** Attempts per delivery, the first included. */
  attempts: number;
  /** Delay before the first retry; each further one doubles it (exponential backoff, with jitter), unless the receiver says when. */
  backoffMs: number;
}

export class WebhookProducer {
  constructor(
    private readonly queue: Queue,
    private readonly webhooks: WebhookRepository,
  ) {}

  static queue(connection: RedisConnection, prefix: string, retry: WebhookRetryPolicy): Queue {
    return createQueue(QUEUE.webhook, connection, prefix, {
      attempts: retry.attempts,
      backoff: { type: WEBHOOK_BACKOFF_TYPE, delay: retry.backoffMs, jitter: 0.2 },
    });
  }

  /** Delivers the event to every enabled endpoint of the scope's tenant that subscribes to its type. */
  async emit(scope: EventScope, event: NewWebhookEvent): Promise<number> {
    const parsed = parseWebhookEvent({ ...event, timestamp: event.timestamp ?? new Date().toISOString() });
    const deliveryIds = await this.webhooks.createDeliveries(scope, {
      id: parsed.id,
      type: parsed.type,
      body: JSON.stringify(parsed),
    });
    await this.enqueue(deliveryIds);
    return deliveryIds.length;
  }

  /** A `webhook.test` event to one endpoint, enabled or not. Returns the delivery. */
  async sendTest(endpointId: string) {
    const at = new Date();
    const event = parseWebhookEvent({
      id: webhookEventId(TEST_EVENT_TYPE, endpointId, String(at.getTime())),
      type: TEST_EVENT_TYPE,
      timestamp: at.toISOString(),
      data: { endpointId, message: "a test event sent on request of the endpoint's owner" },
    });
    const delivery = await this.webhooks.createDelivery(endpointId, {
      id: event.id,
      type: event.type,
      body: JSON.stringify(event),
    });
    await this.enqueue([delivery.id]);
    return delivery;
  }

  async close(): Promise<void> {
    await this.queue.close();
  }

  private async enqueue(deliveryIds: string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.queue.addBulk(
      deliveryIds.map((deliveryId) => ({
        name: JOB.deliverWebhook,
        data: deliverWebhookPayload.parse({ v: 1, deliveryId }),
        opts: { jobId: jobId.deliverWebhook(deliveryId) },
      })),
    );
  }
}
