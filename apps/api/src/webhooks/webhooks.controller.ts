import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { cursorQuery, restPage } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, pageOfSchema, ZodBody, ZodCreated, ZodQuery, ZodResponse } from '../openapi/zod-openapi';
import {
  createdWebhookView,
  createWebhookInput,
  deliveryView,
  testDeliveryView,
  updateWebhookInput,
  webhookView,
} from './webhook.schemas';
import { WebhooksService } from './webhooks.service';
import { Idempotent } from '../http/idempotency.interceptor';

/** Managing endpoints (and their secrets) takes the admin scope; reading them and their logs, read. */
@ApiTags('webhooks')
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @RequireScope('admin')
  @ZodBody(createWebhookInput)
  // The secret is not kept with the Idempotency-Key: a replay answers without it.
  @Idempotent({ unstored: ['secret'] })
  @ZodCreated(
    201,
    createdWebhookView,
    (webhook: { id: string }) => `/v1/webhooks/${webhook.id}`,
    'created; the secret is shown only here (not in an Idempotency-Key replay: set a new one with PATCH if it was lost)',
  )
  @ApiErrors(403)
  create(@TenantId() tenantId: string, @Body() body: unknown) {
    return this.webhooks.create(tenantId, parseInput(createWebhookInput, body));
  }

  @Get()
  @ZodQuery(cursorQuery)
  @ZodResponse(200, pageOfSchema(webhookView))
  @ApiErrors()
  async list(@TenantId() tenantId: string, @Query() query: unknown) {
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    return restPage(await this.webhooks.list(tenantId, { after: cursor, first: limit }));
  }

  @Get(':webhookId')
  @ZodResponse(200, webhookView)
  @ApiErrors(404)
  get(@TenantId() tenantId: string, @Param('webhookId') webhookId: string) {
    return this.webhooks.get(tenantId, webhookId);
  }

  @Patch(':webhookId')
  @RequireScope('admin')
  @ZodBody(updateWebhookInput)
  @ZodResponse(200, webhookView)
  @ApiErrors(403, 404)
  update(@TenantId() tenantId: string, @Param('webhookId') webhookId: string, @Body() body: unknown) {
    return this.webhooks.update(tenantId, webhookId, parseInput(updateWebhookInput, body));
  }

  @Delete(':webhookId')
  @HttpCode(204)
  @RequireScope('admin')
  @ZodResponse(204, null, 'deleted, with its delivery log')
  @ApiErrors(403, 404)
  async remove(@TenantId() tenantId: string, @Param('webhookId') webhookId: string) {
    await this.webhooks.remove(tenantId, webhookId);
  }

  @Post(':webhookId/test')
  @RequireScope('admin')
  @ZodCreated(
    202,
    testDeliveryView,
    (delivery: { id: string }, { webhookId }) => `/v1/webhooks/${webhookId}/deliveries/${delivery.id}`,
    'a webhook.test event is queued for the endpoint, even a disabled one',
  )
  @ApiErrors(403, 404)
  async test(@TenantId() tenantId: string, @Param('webhookId') webhookId: string) {
    const { id, eventId, status } = await this.webhooks.sendTest(tenantId, webhookId);
    return { id, eventId, status };
  }

  @Get(':webhookId/deliveries')
  @ZodQuery(cursorQuery)
  @ZodResponse(200, pageOfSchema(deliveryView), 'newest first')
  @ApiErrors(404)
  async deliveries(@TenantId() tenantId: string, @Param('webhookId') webhookId: string, @Query() query: unknown) {
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    return restPage(await this.webhooks.deliveries(tenantId, webhookId, { after: cursor, first: limit }));
  }

  @Get(':webhookId/deliveries/:deliveryId')
  @ZodResponse(200, deliveryView)
  @ApiErrors(404)
  delivery(
    @TenantId() tenantId: string,
    @Param('webhookId') webhookId: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    return this.webhooks.delivery(tenantId, webhookId, deliveryId);
  }
}
