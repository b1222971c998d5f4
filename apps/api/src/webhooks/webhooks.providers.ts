// What api.module adds for webhooks: the endpoints' routes and resolver, the repository, and the
// producer side of the webhook queue (test events and events the API itself emits).
import { Inject, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { WebhookRepository, type PrismaClient } from '@sitemaps/data';
import { WebhookProducer, type RedisConnection } from '@sitemaps/jobs';
import { CONFIG, PRISMA, REDIS, WEBHOOK_PRODUCER, WEBHOOK_REPOSITORY } from '../api.tokens';
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
  { provide: WEBHOOK_REPOSITORY, inject: [PRISMA], useFactory: (prisma: PrismaClient) => new WebhookRepository(prisma) },
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
