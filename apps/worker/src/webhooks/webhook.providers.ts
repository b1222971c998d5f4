// What worker.module adds for webhooks: the signed sender and the delivery processors.
import type { Provider } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG } from '@sitemaps/core';
import { WebhookSender } from './webhook.sender';
import { WebhookProcessors } from './webhook.processors';

export const WEBHOOK_PROVIDERS: Provider[] = [
  { provide: WebhookSender, inject: [CONFIG], useFactory: (config: AppConfig) => new WebhookSender(config.webhooks) },
  WebhookProcessors,
];
