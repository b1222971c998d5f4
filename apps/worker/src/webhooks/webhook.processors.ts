// Delivers webhook events (queue `webhook`): each job is one delivery, re-read from Postgres on
// every attempt. A 2xx ends it; anything else is retried with backoff (the queue's policy) until
// the attempts run out, after the receiver's `Retry-After` when it sent one (webhookBackoff);
// 410 Gone ends it and disables the endpoint, as the spec asks.
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { UnrecoverableError, type Job } from 'bullmq';
import type { AppConfig } from '@sitemaps/config';
import { WebhookRepository } from '@sitemaps/data';
import { retryAfterMs, signWebhook, TEST_EVENT_TYPE } from '@sitemaps/domain';
import { deliverWebhookPayload, QUEUE, type DeliverWebhookPayload } from '@sitemaps/jobs';
import { PlatformMetrics, redactUrl } from '@sitemaps/observability';
import { JobWorkers } from '../job-workers';
import { CONFIG } from '@sitemaps/core';
import { RetryLaterError, webhookBackoff } from './webhook-backoff';
import { WebhookSender } from './webhook.sender';

@Injectable()
export class WebhookProcessors implements OnModuleInit {
  private readonly logger = new Logger('webhooks');

  constructor(
    private readonly workers: JobWorkers,
    private readonly sender: WebhookSender,
    private readonly webhooks: WebhookRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
  ) {}

  onModuleInit(): void {
    this.workers.serve(QUEUE.webhook, deliverWebhookPayload, (data, job) => this.deliver(data, job), {
      settings: { backoffStrategy: webhookBackoff },
    });
  }

  async deliver({ deliveryId }: DeliverWebhookPayload, job: Job) {
    const delivery = await this.webhooks.deliveryToSend(deliveryId);
    if (!delivery || delivery.status !== 'pending') return { skipped: 'delivered, failed or removed' };
    const { endpoint } = delivery;
    const test = delivery.eventType === TEST_EVENT_TYPE;
    if (!endpoint.enabled && !test) {
      await this.webhooks.abandonDelivery(deliveryId, 'the endpoint was disabled before this delivery');
      return { skipped: 'endpoint disabled' };
    }
    const headers = signWebhook(endpoint.secret, delivery.eventId, delivery.body, new Date());
    const sent = await this.sender.send(endpoint.url, { ...headers }, delivery.body);
    const attempt = job.attemptsMade + 1;
    const succeeded = sent.status !== null && sent.status >= 200 && sent.status < 300;
    const gone = sent.status === 410;
    const last = gone || attempt >= (job.opts.attempts ?? 1);
    const result = succeeded ? 'succeeded' : last ? 'failed' : 'retry';
    const { disabled } = await this.webhooks.recordAttempt(
      deliveryId,
      {
        attempt,
        responseStatus: sent.status,
        latencyMs: sent.latencyMs,
        error: sent.error,
        result,
        gone,
        counts: !test,
      },
      this.config.webhooks.disableAfterFailures,
    );
    this.metrics.webhookDeliveries.inc({ outcome: result === 'succeeded' ? 'delivered' : result });
    if (disabled)
      this.logger.warn(
        `endpoint ${endpoint.id} of tenant ${endpoint.tenantId} disabled: ${gone ? 'it answered 410 Gone' : 'deliveries kept failing'}`,
      );
    // The failure reason is kept in Redis and shown on the queue board: the URL's credentials stay out.
    const to = redactUrl(endpoint.url);
    if (sent.detail) this.logger.warn(`delivery ${deliveryId} to ${to}: ${sent.detail}`);
    if (result === 'retry') {
      const message = `delivery ${deliveryId} to ${to}: ${sent.error}`;
      const delayMs = retryAfterMs(sent.retryAfter, new Date());
      throw delayMs === undefined ? new Error(message) : new RetryLaterError(message, delayMs);
    }
    if (result === 'failed')
      throw new UnrecoverableError(`delivery ${deliveryId} to ${to} failed for good: ${sent.error}`);
    return { status: sent.status, attempts: attempt };
  }
}
