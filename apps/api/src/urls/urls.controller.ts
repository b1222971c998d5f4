import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { restPage } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, pageOfSchema, ZodBody, ZodQuery, ZodResponse } from '../openapi/zod-openapi';
import {
  deleteResultView,
  deleteUrlsInput,
  listUrlsQuery,
  upsertResultView,
  upsertUrlsInput,
  urlExportQuery,
  urlView,
} from './url.schemas';
import { UrlsService } from './urls.service';

@ApiTags('urls')
@Controller('v1/sites/:siteId/urls')
export class UrlsController {
  constructor(private readonly urls: UrlsService) {}

  @Put()
  @RequireScope('write')
  @ZodBody(upsertUrlsInput, 'up to 10,000 entries; each is validated on its own')
  @ZodResponse(200, upsertResultView, 'valid entries stored; invalid ones listed in errors by index')
  @ApiErrors(403, 404, 413)
  @ApiOperation({ summary: 'Upsert up to 10,000 URL entries' })
  async upsert(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    const { upserted, changed, errors, warnings } = await this.urls.upsert(tenantId, siteId, body);
    return { upserted, changed, errors, warnings };
  }

  @Delete()
  @RequireScope('write')
  @HttpCode(200)
  @ZodBody(deleteUrlsInput)
  @ZodResponse(200, deleteResultView)
  @ApiErrors(404)
  @ApiOperation({ summary: 'Delete URLs by loc' })
  delete(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    return this.urls.delete(tenantId, siteId, parseInput(deleteUrlsInput, body).locs);
  }

  /** Streams: a million URLs cost the API one batch of rows in memory, and the client's pace sets the reads. */
  @Get('export')
  @ZodQuery(urlExportQuery)
  @ApiResponse({
    status: 200,
    description:
      'one URL entry a line, in the shape POST …/urls/import reads: an export imported into another site publishes the same files',
    content: { 'application/x-ndjson': { schema: { type: 'string' } } },
  })
  @ApiErrors(404)
  @ApiOperation({ summary: "Export the site's live URLs as NDJSON import lines" })
  async export(
    @TenantId() tenantId: string,
    @Param('siteId') siteId: string,
    @Query() query: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const lines = await this.urls.export(tenantId, siteId, parseInput(urlExportQuery, query, 'query'));
    await reply
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(Readable.from(lines));
  }

  @Get()
  @ZodQuery(listUrlsQuery)
  @ZodResponse(200, pageOfSchema(urlView))
  @ApiErrors(404)
  @ApiOperation({ summary: 'List URLs by prefix, section or change time' })
  async list(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Query() query: unknown) {
    const { cursor, limit, ...filter } = parseInput(listUrlsQuery, query, 'query');
    return restPage(await this.urls.list(tenantId, siteId, filter, { after: cursor, first: limit }));
  }
}
