// A tenant's webhook endpoints and the delivery log of each: the endpoint is the aggregate, its
// deliveries are its log. Counting failures and disabling an endpoint happen here, in one
// transaction with the attempt that caused them.
import type { PrismaClient } from '../generated/prisma/client';

export type WebhookEndpointRow = Awaited<ReturnType<PrismaClient['webhookEndpoint']['findFirstOrThrow']>>;
export type WebhookDeliveryRow = Awaited<ReturnType<PrismaClient['webhookDelivery']['findFirstOrThrow']>>;

export interface NewWebhookEndpoint {
  url: string;
  secret: string;
  eventTypes: string[];
  enabled: boolean;
}

export interface WebhookEndpointChange {
  url?: string;
  secret?: string;
  eventTypes?: string[];
  enabled?: boolean;
}

/** An event ready to send: its id (the webhook-id header), type and the exact body. */
export interface SerializedEvent {
  id: string;
  type: string;
  body: string;
}

/** Who an event concerns: a tenant, or a site (whose tenant's endpoints receive it). */
export type EventScope = { tenantId: string } | { siteId: string };

export interface AttemptOutcome {
  attempt: number;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
  /** `retry`: another attempt follows; `succeeded`/`failed`: the delivery is over. */
  result: 'retry' | 'succeeded' | 'failed';
  /** The receiver asked to stop (410 Gone): disable the endpoint at once. */
  gone?: boolean;
  /** Test events say how an endpoint answers; they neither count as failures nor clear them. */
  counts: boolean;
}

export class WebhookRepository {
  constructor(private readonly prisma: PrismaClient) {}

  createEndpoint(tenantId: string, endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
    return this.prisma.webhookEndpoint.create({
      data: { tenantId, ...endpoint, ...(endpoint.enabled ? {} : { disabledAt: new Date(), disabledReason: 'owner' }) },
    });
  }

  /** Oldest first, by id after `afterId`; `take` rows. */
  listEndpoints(tenantId: string, afterId: string | undefined, take: number): Promise<WebhookEndpointRow[]> {
    return this.prisma.webhookEndpoint.findMany({
      where: { tenantId, ...(afterId ? { id: { gt: afterId } } : {}) },
      orderBy: { id: 'asc' },
      take,
    });
  }

  findEndpoint(tenantId: string, id: string): Promise<WebhookEndpointRow | null> {
    return this.prisma.webhookEndpoint.findFirst({ where: { id, tenantId } });
  }

  /** Null when the tenant has no such endpoint. Enabling clears the failure count and the reason it was disabled. */
  async updateEndpoint(
    tenantId: string,
    id: string,
    change: WebhookEndpointChange,
  ): Promise<WebhookEndpointRow | null> {
    const status =
      change.enabled === true
        ? { enabled: true, consecutiveFailures: 0, disabledAt: null, disabledReason: null }
        : change.enabled === false
          ? { enabled: false, disabledAt: new Date(), disabledReason: 'owner' }
          : {};
    const { count } = await this.prisma.webhookEndpoint.updateMany({
      where: { id, tenantId, ...(change.enabled === false ? { enabled: true } : {}) },
      data: {
        ...(change.url !== undefined ? { url: change.url } : {}),
        ...(change.secret !== undefined ? { secret: change.secret } : {}),
        ...(change.eventTypes ? { eventTypes: change.eventTypes } : {}),
        ...status,
      },
    });
    // Disabling an endpoint that is already disabled keeps its reason (and when).
    if (count === 0 && change.enabled === false) {
      const { enabled: _enabled, ...rest } = change;
      if (Object.keys(rest).length > 0) return this.updateEndpoint(tenantId, id, rest);
    }
    return this.findEndpoint(tenantId, id);
  }

  async deleteEndpoint(tenantId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.webhookEndpoint.deleteMany({ where: { id, tenantId } });
    return count === 1;
  }

  /**
   * One pending delivery per enabled endpoint subscribed to the event's type; the ids of all of
   * them, including those an earlier emit of the same event created (same event id, one row).
   */
  async createDeliveries(scope: EventScope, event: SerializedEvent): Promise<string[]> {
    const endpoints = await this.prisma.webhookEndpoint.findMany({
      where: {
        enabled: true,
        eventTypes: { has: event.type },
        ...('tenantId' in scope ? { tenantId: scope.tenantId } : { tenant: { sites: { some: { id: scope.siteId } } } }),
      },
      select: { id: true },
    });
    if (endpoints.length === 0) return [];
    const endpointIds = endpoints.map((endpoint) => endpoint.id);
    await this.prisma.webhookDelivery.createMany({
      data: endpointIds.map((endpointId) => ({
        endpointId,
        eventId: event.id,
        eventType: event.type,
        body: event.body,
      })),
      skipDuplicates: true,
    });
    const rows = await this.prisma.webhookDelivery.findMany({
      where: { endpointId: { in: endpointIds }, eventId: event.id },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  /** A delivery to this endpoint only, whatever it subscribes to and even when disabled (a test event). */
  async createDelivery(endpointId: string, event: SerializedEvent): Promise<WebhookDeliveryRow> {
    return this.prisma.webhookDelivery.upsert({
      where: { endpointId_eventId: { endpointId, eventId: event.id } },
      create: { endpointId, eventId: event.id, eventType: event.type, body: event.body },
      update: {},
    });
  }

  /** Newest first: by creation instant, then id, before the `before` key. */
  listDeliveries(endpointId: string, before: [Date, string] | undefined, take: number): Promise<WebhookDeliveryRow[]> {
    return this.prisma.webhookDelivery.findMany({
      where: {
        endpointId,
        ...(before ? { OR: [{ createdAt: { lt: before[0] } }, { createdAt: before[0], id: { lt: before[1] } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take,
    });
  }

  findDelivery(endpointId: string, id: string): Promise<WebhookDeliveryRow | null> {
    return this.prisma.webhookDelivery.findFirst({ where: { id, endpointId } });
  }

  /** The tenant's delivery with this id (a uuid), whichever its endpoint, or null. */
  findDeliveryForTenant(tenantId: string, id: string): Promise<WebhookDeliveryRow | null> {
    return this.prisma.webhookDelivery.findFirst({ where: { id, endpoint: { tenantId } } });
  }

  /** What an attempt needs: the delivery and its endpoint's URL, secret and state. */
  deliveryToSend(id: string) {
    return this.prisma.webhookDelivery.findUnique({ where: { id }, include: { endpoint: true } });
  }

  /**
   * Records an attempt. A delivery that failed for good adds one to its endpoint's failures in
   * a row; at `disableAfter` (or on 410 Gone) the endpoint is disabled. A success clears the count.
   * Returns whether this attempt disabled the endpoint.
   */
  async recordAttempt(id: string, outcome: AttemptOutcome, disableAfter: number): Promise<{ disabled: boolean }> {
    const now = new Date();
    return this.prisma.$transaction(async (tx) => {
      const delivery = await tx.webhookDelivery.update({
        where: { id },
        data: {
          attempts: outcome.attempt,
          responseStatus: outcome.responseStatus,
          latencyMs: outcome.latencyMs,
          error: outcome.error,
          lastAttemptAt: now,
          ...(outcome.result === 'retry' ? {} : { status: outcome.result, finishedAt: now }),
        },
        select: { endpointId: true },
      });
      if (!outcome.counts || outcome.result === 'retry') return { disabled: false };
      if (outcome.result === 'succeeded') {
        await tx.webhookEndpoint.updateMany({
          where: { id: delivery.endpointId, consecutiveFailures: { gt: 0 } },
          data: { consecutiveFailures: 0 },
        });
        return { disabled: false };
      }
      const endpoint = await tx.webhookEndpoint.update({
        where: { id: delivery.endpointId },
        data: { consecutiveFailures: { increment: 1 } },
        select: { consecutiveFailures: true },
      });
      if (!outcome.gone && endpoint.consecutiveFailures < disableAfter) return { disabled: false };
      const { count } = await tx.webhookEndpoint.updateMany({
        where: { id: delivery.endpointId, enabled: true },
        data: { enabled: false, disabledAt: now, disabledReason: outcome.gone ? 'gone' : 'failures' },
      });
      return { disabled: count === 1 };
    });
  }

  /** Ends a delivery without an attempt (its endpoint was disabled or removed meanwhile). */
  async abandonDelivery(id: string, reason: string): Promise<void> {
    await this.prisma.webhookDelivery.updateMany({
      where: { id, status: 'pending' },
      data: { status: 'failed', error: reason, finishedAt: new Date() },
    });
  }
}
