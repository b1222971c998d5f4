import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { cursorQuery, restPage } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, pageOfSchema, ZodBody, ZodCreated, ZodQuery, ZodResponse } from '../openapi/zod-openapi';
import { buildView, createBuildInput, createdBuildView } from './build.schemas';
import { BuildsService } from './builds.service';
import { Idempotent } from '../http/idempotency.interceptor';

@ApiTags('builds')
@Controller('v1/sites/:siteId/builds')
export class BuildsController {
  constructor(private readonly builds: BuildsService) {}

  @Post()
  @RequireScope('write')
  @ZodBody(createBuildInput)
  @Idempotent()
  @ZodCreated(
    202,
    createdBuildView,
    (build: { buildId: string }, { siteId }) => `/v1/sites/${siteId}/builds/${build.buildId}`,
    'queued; poll GET …/builds/{buildId}',
  )
  @ApiErrors(404)
  @ApiOperation({ summary: 'Queue a build of the site' })
  async create(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    const { full } = parseInput(createBuildInput, body ?? {});
    const build = await this.builds.create(tenantId, siteId, full);
    return { buildId: build.id, status: build.status };
  }

  @Get()
  @ZodQuery(cursorQuery)
  @ZodResponse(200, pageOfSchema(buildView), 'newest first')
  @ApiErrors(404)
  @ApiOperation({ summary: 'List the builds of a site, newest first' })
  async list(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Query() query: unknown) {
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    return restPage(await this.builds.list(tenantId, siteId, { after: cursor, first: limit }));
  }

  @Get(':buildId')
  @ZodResponse(200, buildView)
  @ApiErrors(404)
  @ApiOperation({ summary: 'Get a build with its stage timings' })
  get(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Param('buildId') buildId: string) {
    return this.builds.get(tenantId, siteId, buildId);
  }
}
