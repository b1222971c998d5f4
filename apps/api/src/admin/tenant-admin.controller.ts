import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuditActor } from '@sitemaps/data';
import { PlatformOnly } from '../auth/api-key.guard';
import { AuditActorOf } from '../auth/audit-actor.decorator';
import { restPage } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, pageOfSchema, ZodBody, ZodQuery, ZodResponse } from '../openapi/zod-openapi';
import {
  auditEntryView,
  auditQuery,
  hostnameClaimsView,
  hostnameQuery,
  suspendTenantInput,
  tenantListQuery,
  tenantView,
  updateTenantInput,
} from './admin.schemas';
import { TenantAdminService } from './tenant-admin.service';

/** The platform operator's routes: the ADMIN_API_KEY only; every change is in the audit log. */
@ApiTags('admin')
@Controller('v1')
@PlatformOnly()
export class TenantAdminController {
  constructor(private readonly admin: TenantAdminService) {}

  @Get('tenants')
  @ZodQuery(tenantListQuery)
  @ZodResponse(200, pageOfSchema(tenantView), 'oldest first')
  @ApiErrors(403)
  @ApiOperation({ summary: 'List tenants' })
  async list(@Query() query: unknown) {
    const { cursor, limit, suspended } = parseInput(tenantListQuery, query, 'query');
    return restPage(await this.admin.list({ after: cursor, first: limit, suspended }));
  }

  @Get('tenants/:tenantId')
  @ZodResponse(200, tenantView)
  @ApiErrors(403, 404)
  @ApiOperation({ summary: 'Get a tenant' })
  get(@Param('tenantId') tenantId: string) {
    return this.admin.get(tenantId);
  }

  @Patch('tenants/:tenantId')
  @ZodBody(updateTenantInput)
  @ZodResponse(200, tenantView, 'changed; the quotas apply from the next request')
  @ApiErrors(403, 404)
  @ApiOperation({ summary: "Change a tenant's name or quotas" })
  update(@Param('tenantId') tenantId: string, @Body() body: unknown, @AuditActorOf() actor: AuditActor) {
    return this.admin.update(tenantId, parseInput(updateTenantInput, body), actor);
  }

  @Post('tenants/:tenantId/suspend')
  @HttpCode(200)
  @ZodBody(suspendTenantInput)
  @ZodResponse(200, tenantView, 'suspended at once: its keys answer 401 TENANT_SUSPENDED, its sites 404, no builds run')
  @ApiErrors(403, 404)
  @ApiOperation({ summary: 'Suspend a tenant' })
  suspend(@Param('tenantId') tenantId: string, @Body() body: unknown, @AuditActorOf() actor: AuditActor) {
    const { reason } = parseInput(suspendTenantInput, body ?? {});
    return this.admin.suspend(tenantId, reason ?? null, actor);
  }

  @Post('tenants/:tenantId/resume')
  @HttpCode(200)
  @ZodResponse(200, tenantView, 'active again: keys, sites and builds as before')
  @ApiErrors(403, 404)
  @ApiOperation({ summary: 'Resume a suspended tenant' })
  resume(@Param('tenantId') tenantId: string, @AuditActorOf() actor: AuditActor) {
    return this.admin.resume(tenantId, actor);
  }

  @Delete('tenants/:tenantId')
  @HttpCode(204)
  @ZodResponse(204, null, 'deleted, with its keys, sites, URLs, builds and files')
  @ApiErrors(403, 404)
  @ApiOperation({ summary: 'Delete a tenant' })
  async remove(@Param('tenantId') tenantId: string, @AuditActorOf() actor: AuditActor) {
    await this.admin.remove(tenantId, actor);
  }

  @Get('admin/sites')
  @ZodQuery(hostnameQuery)
  @ZodResponse(200, hostnameClaimsView)
  @ApiErrors(403)
  @ApiOperation({ summary: 'List the sites of every tenant for a hostname' })
  sitesByHostname(@Query() query: unknown) {
    return this.admin.claims(parseInput(hostnameQuery, query, 'query').hostname);
  }

  @Get('admin/audit-log')
  @ZodQuery(auditQuery)
  @ZodResponse(200, pageOfSchema(auditEntryView), 'newest first')
  @ApiErrors(403)
  @ApiOperation({ summary: 'Read the audit log of operator actions' })
  async auditLog(@Query() query: unknown) {
    const { cursor, limit, targetId } = parseInput(auditQuery, query, 'query');
    return restPage(await this.admin.auditLog({ after: cursor, first: limit, targetId }));
  }
}
