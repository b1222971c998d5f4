import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { cursorQuery, restPage } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, pageOfSchema, ZodBody, ZodCreated, ZodQuery, ZodResponse } from '../openapi/zod-openapi';
import { createSiteInput, scheduleView, siteView, updateSiteInput } from './site.schemas';
import { SitesService } from './sites.service';
import { Idempotent } from '../http/idempotency.interceptor';

@ApiTags('sites')
@Controller('v1/sites')
export class SitesController {
  constructor(private readonly sites: SitesService) {}

  @Get(':siteId/schedule')
  @ZodResponse(200, scheduleView)
  @ApiErrors(404)
  @ApiOperation({ summary: "Get the site's scheduled rebuild" })
  schedule(@TenantId() tenantId: string, @Param('siteId') siteId: string) {
    return this.sites.schedule(tenantId, siteId);
  }

  @Post()
  @RequireScope('write')
  @ZodBody(createSiteInput)
  @Idempotent()
  @ZodCreated(201, siteView, (site: { id: string }) => `/v1/sites/${site.id}`)
  @ApiErrors(403, 409)
  @ApiOperation({ summary: 'Create a site' })
  create(@TenantId() tenantId: string, @Body() body: unknown) {
    return this.sites.create(tenantId, parseInput(createSiteInput, body));
  }

  @Get()
  @ZodQuery(cursorQuery)
  @ZodResponse(200, pageOfSchema(siteView))
  @ApiErrors()
  @ApiOperation({ summary: 'List sites' })
  async list(@TenantId() tenantId: string, @Query() query: unknown) {
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    return restPage(await this.sites.list(tenantId, { after: cursor, first: limit }));
  }

  @Get(':siteId')
  @ZodResponse(200, siteView)
  @ApiErrors(404)
  @ApiOperation({ summary: 'Get a site' })
  get(@TenantId() tenantId: string, @Param('siteId') siteId: string) {
    return this.sites.view(tenantId, siteId);
  }

  @Patch(':siteId')
  @RequireScope('write')
  @ZodBody(updateSiteInput)
  @ZodResponse(200, siteView)
  @ApiErrors(404, 409)
  @ApiOperation({ summary: "Change a site's settings" })
  update(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    return this.sites.update(tenantId, siteId, parseInput(updateSiteInput, body));
  }

  @Post(':siteId/verify')
  @RequireScope('write')
  @ZodCreated(
    202,
    siteView,
    (site: { id: string }) => `/v1/sites/${site.id}`,
    'a check of the hostname proof is queued; poll the site for verification.status',
  )
  @ApiErrors(404)
  verify(@TenantId() tenantId: string, @Param('siteId') siteId: string) {
    return this.sites.verify(tenantId, siteId);
  }

  @Delete(':siteId')
  @HttpCode(204)
  @RequireScope('write')
  @ZodResponse(204, null, 'deleted, with its URLs, builds and files')
  @ApiErrors(404)
  @ApiOperation({ summary: 'Delete a site with its URLs, builds and files' })
  async remove(@TenantId() tenantId: string, @Param('siteId') siteId: string) {
    await this.sites.remove(tenantId, siteId);
  }
}
