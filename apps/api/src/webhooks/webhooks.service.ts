import net from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { WebhookRepository, type WebhookDeliveryRow, type WebhookEndpointRow } from '@sitemaps/data';
import { DomainError, generateWebhookSecret, invalid, isValidWebhookSecret, parseWebhookEvent } from '@sitemaps/domain';
import { isPublicAddress } from '@sitemaps/ingest';
import type { WebhookProducer } from '@sitemaps/jobs';
import { CONFIG, WEBHOOK_PRODUCER } from '@sitemaps/core';
import {
  createdKey,
  createdKeyOf,
  decodeCursor,
  pageOf,
  uuidKey,
  type Page,
  type PageRequest,
} from '../common/pagination';
import type { DeliveryView, WebhookView } from './webhook.schemas';

export interface WebhookInput {
  url?: string;
  eventTypes?: string[];
  secret?: string;
  enabled?: boolean;
}

const webhookNotFound = (id: string) => new DomainError('not_found', 'WEBHOOK_NOT_FOUND', `webhook ${id} not found`);

/** A tenant's webhook endpoints, their delivery logs, and test events. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhookRepository,
    @Inject(WEBHOOK_PRODUCER) private readonly producer: WebhookProducer,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async create(
    tenantId: string,
    input: WebhookInput & { url: string; eventTypes: string[] },
  ): Promise<WebhookView & { secret: string }> {
    this.checkUrl(input.url);
    const secret = input.secret === undefined ? generateWebhookSecret() : checkedSecret(input.secret);
    const row = await this.webhooks.createEndpoint(tenantId, {
      url: input.url,
      eventTypes: [...new Set(input.eventTypes)],
      secret,
      enabled: input.enabled ?? true,
    });
    return { ...presentWebhook(row), secret };
  }

  async list(tenantId: string, page: PageRequest): Promise<Page<WebhookView>> {
    const rows = await this.webhooks.listEndpoints(tenantId, decodeCursor(page.after, uuidKey), page.first + 1);
    return pageOf(rows, page.first, (row) => row.id, presentWebhook);
  }

  async get(tenantId: string, id: string): Promise<WebhookView> {
    return presentWebhook(await this.find(tenantId, id));
  }

  async update(tenantId: string, id: string, input: WebhookInput): Promise<WebhookView> {
    await this.find(tenantId, id);
    if (input.url !== undefined) this.checkUrl(input.url);
    const row = await this.webhooks.updateEndpoint(tenantId, id, {
      ...input,
      ...(input.eventTypes ? { eventTypes: [...new Set(input.eventTypes)] } : {}),
      ...(input.secret !== undefined ? { secret: checkedSecret(input.secret) } : {}),
    });
    if (!row) throw webhookNotFound(id);
    return presentWebhook(row);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!uuidKey.safeParse(id).success || !(await this.webhooks.deleteEndpoint(tenantId, id)))
      throw webhookNotFound(id);
  }

  /** Queues a `webhook.test` event to the endpoint, even a disabled one (to see whether it works again). */
  async sendTest(tenantId: string, id: string): Promise<DeliveryView> {
    const endpoint = await this.find(tenantId, id);
    return presentDelivery(await this.producer.sendTest(endpoint.id));
  }

  /** Newest first. */
  async deliveries(tenantId: string, id: string, page: PageRequest): Promise<Page<DeliveryView>> {
    const endpoint = await this.find(tenantId, id);
    const rows = await this.webhooks.listDeliveries(endpoint.id, decodeCursor(page.after, createdKey), page.first + 1);
    return pageOf(rows, page.first, createdKeyOf, presentDelivery);
  }

  async delivery(tenantId: string, id: string, deliveryId: string): Promise<DeliveryView> {
    const endpoint = await this.find(tenantId, id);
    const row = uuidKey.safeParse(deliveryId).success
      ? await this.webhooks.findDelivery(endpoint.id, deliveryId)
      : null;
    if (!row) throw new DomainError('not_found', 'WEBHOOK_DELIVERY_NOT_FOUND', `delivery ${deliveryId} not found`);
    return presentDelivery(row);
  }

  /** The tenant's delivery by its id alone (for `node(id:)`). */
  async deliveryById(tenantId: string, deliveryId: string): Promise<DeliveryView> {
    const row = uuidKey.safeParse(deliveryId).success
      ? await this.webhooks.findDeliveryForTenant(tenantId, deliveryId)
      : null;
    if (!row) throw new DomainError('not_found', 'WEBHOOK_DELIVERY_NOT_FOUND', `delivery ${deliveryId} not found`);
    return presentDelivery(row);
  }

  private async find(tenantId: string, id: string): Promise<WebhookEndpointRow> {
    const row = uuidKey.safeParse(id).success ? await this.webhooks.findEndpoint(tenantId, id) : null;
    if (!row) throw webhookNotFound(id);
    return row;
  }

  /** Addresses inside the platform are refused at once when written as such; names are checked at every delivery. */
  private checkUrl(url: string): void {
    if (this.config.webhooks.allowPrivateAddresses) return;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if ((net.isIP(host) && !isPublicAddress(host)) || host === 'localhost' || host.endsWith('.localhost')) {
      throw invalid('WEBHOOK_URL_REFUSED', `${host} is a private, loopback or link-local address`, [
        { field: 'url', message: 'must reach a public address' },
      ]);
    }
  }
}

function checkedSecret(secret: string): string {
  if (isValidWebhookSecret(secret)) return secret;
  throw invalid('VALIDATION_FAILED', 'invalid request body', [
    { field: 'secret', code: 'INVALID_SECRET', message: 'must be whsec_ followed by the base64 of 24 to 64 bytes' },
  ]);
}

export function presentWebhook(row: WebhookEndpointRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    consecutiveFailures: row.consecutiveFailures,
    disabledAt: row.disabledAt,
    disabledReason: row.disabledReason as WebhookView['disabledReason'],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function presentDelivery(row: WebhookDeliveryRow): DeliveryView {
  return {
    id: row.id,
    webhookId: row.endpointId,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status as DeliveryView['status'],
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    latencyMs: row.latencyMs,
    error: row.error,
    createdAt: row.createdAt,
    lastAttemptAt: row.lastAttemptAt,
    finishedAt: row.finishedAt,
    event: parseWebhookEvent(JSON.parse(row.body)),
  };
}
