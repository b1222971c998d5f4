// What api.module adds for webhooks: the endpoints' routes and resolver (the producer side of the
// webhook queue, for test events and events the API emits, is CoreModule's).
import type { Provider } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller';
import { WebhooksResolver } from './webhooks.resolver';
import { WebhooksService } from './webhooks.service';

export const WEBHOOK_CONTROLLERS = [WebhooksController];

export const WEBHOOK_PROVIDERS: Provider[] = [WebhooksService, WebhooksResolver];
