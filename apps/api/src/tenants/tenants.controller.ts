import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeysService } from '../auth/api-keys.service';
import { PlatformOnly, RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { AuditActorOf } from '../auth/audit-actor.decorator';
import type { AuditActor } from '@sitemaps/data';
import { cursorQuery, restPage } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, pageOfSchema, ZodBody, ZodCreated, ZodQuery, ZodResponse } from '../openapi/zod-openapi';
import {
  apiKeyView,
  createApiKeyInput,
  createdApiKeyView,
  createdTenantView,
  createTenantInput,
} from './tenant.schemas';
import { TenantsService } from './tenants.service';

@ApiTags('tenants')
@Controller('v1')
export class TenantsController {
  constructor(
    private readonly tenants: TenantsService,
    private readonly keys: ApiKeysService,
  ) {}

  @Post('tenants')
  @PlatformOnly()
  @ZodBody(createTenantInput)
  @ZodCreated(
    201,
    createdTenantView,
    (tenant: { id: string }) => `/v1/tenants/${tenant.id}`,
    'created, with its first key; platform key only',
  )
  @ApiErrors(403)
  @ApiOperation({ summary: 'Create a tenant and its first API key' })
  create(@Body() body: unknown, @AuditActorOf() actor: AuditActor) {
    return this.tenants.create(parseInput(createTenantInput, body), actor);
  }

  @Post('api-keys')
  @RequireScope('admin')
  @ZodBody(createApiKeyInput)
  @ZodCreated(201, createdApiKeyView, (key: { id: string }) => `/v1/api-keys/${key.id}`)
  @ApiErrors(403)
  @ApiOperation({ summary: 'Create an API key' })
  async createKey(@TenantId() tenantId: string, @Body() body: unknown) {
    const input = parseInput(createApiKeyInput, body);
    const { key, ...meta } = await this.keys.create(tenantId, input.name, input.scopes);
    return { ...meta, apiKey: key };
  }

  @Get('api-keys')
  @RequireScope('admin')
  @ZodQuery(cursorQuery)
  @ZodResponse(200, pageOfSchema(apiKeyView))
  @ApiErrors(403)
  @ApiOperation({ summary: 'List API keys' })
  async listKeys(@TenantId() tenantId: string, @Query() query: unknown) {
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    return restPage(await this.keys.list(tenantId, { after: cursor, first: limit }));
  }

  @Delete('api-keys/:keyId')
  @HttpCode(204)
  @RequireScope('admin')
  @ZodResponse(204, null, 'revoked: the key answers 401 from now on')
  @ApiErrors(403, 404)
  @ApiOperation({ summary: 'Revoke an API key' })
  async revokeKey(@TenantId() tenantId: string, @Param('keyId') keyId: string) {
    await this.keys.revoke(tenantId, keyId);
  }
}
