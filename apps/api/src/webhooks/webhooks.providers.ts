// What api.module adds for webhooks: the endpoints' routes and resolver, the repository, and the
// producer side of the webhook queue (test events and events the API itself emits).
import { Inject, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { WebhookRepository } from '@sitemaps/data';
import { WebhookProducer, type RedisConnection } from '@sitemaps/jobs';
import { CONFIG, REDIS, WEBHOOK_PRODUCER, WEBHOOK_REPOSITORY } from '../api.tokens';
import { WebhooksController } from './webhooks.controller';
import { WebhooksResolver } from './webhooks.resolver';
import { WebhooksService } from './webhooks.service';

class WebhookClients implements OnApplicationShutdown {
  constructor(@Inject(WEBHOOK_PRODUCER) private readonly producer: WebhookProducer) {}

  async onApplicationShutdown(): Promise<void> {
    await this.producer.close();
  }
}

export const WEBHOOK_CONTROLLERS = [WebhooksController];

export const WEBHOOK_PROVIDERS: Provider[] = [
  // The one WebhookRepository of DATA_PROVIDERS, under the token the webhook code injects.
  { provide: WEBHOOK_REPOSITORY, useExisting: WebhookRepository },
  {
    provide: WEBHOOK_PRODUCER,
    inject: [REDIS, CONFIG, WEBHOOK_REPOSITORY],
    useFactory: (redis: RedisConnection, config: AppConfig, webhooks: WebhookRepository) =>
      new WebhookProducer(WebhookProducer.queue(redis, config.queuePrefix, config.webhooks), webhooks),
  },
  WebhookClients,
  WebhooksService,
  WebhooksResolver,
];
