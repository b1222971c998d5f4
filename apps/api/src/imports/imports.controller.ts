import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { DomainError } from '@sitemaps/domain';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { cursorQuery, restPage } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import {
  ApiErrors,
  ApiUploadBody,
  pageOfSchema,
  ZodBody,
  ZodCreated,
  ZodQuery,
  ZodResponse,
} from '../openapi/zod-openapi';
import { formatOfContentType } from '../http/streamed-body.parser';
import {
  importQuery,
  importView,
  rejectionView,
  sitemapImportInput,
  uploadResultView,
  warningView,
} from './import.schemas';
import { ImportsService } from './imports.service';
import { UploadSlots } from './upload-slots';
import { Idempotent } from '../http/idempotency.interceptor';

const UPLOAD_FORMATS = [
  'Any size, streamed; `Content-Encoding: gzip` (or deflate, br) accepted, and a gzip body is recognised without it.',
  'NDJSON (`application/x-ndjson`): one URL entry per line, as PUT …/urls takes them; blank lines are skipped.',
  'CSV (`text/csv`): a header row, then one entry per row. Columns, in any order, case-insensitive: `loc` (required),',
  "`lastmod`, `changefreq`, `priority`, `section`, `hreflang` (the URL's own language), `alternate:<hreflang>` (one",
  "per language: that variant's URL; with these columns each row states its whole cluster, so a row without any",
  'leaves its cluster) and `images` (image URLs separated by spaces). An empty cell is an absent field.',
  'Lines are numbered from 1, a CSV header being line 1. Invalid lines are rejected one by one (GET …/imports/{importId}/rejections);',
  "the valid ones are stored. `mode=replace` deletes the site's URLs absent from the upload, in one transaction,",
  'when and only when the import completes. One import runs per site at a time (409 IMPORT_RUNNING), and a tenant',
  'has at most IMPORT_UPLOADS_PER_TENANT uploads open at once (429 UPLOADS_BUSY).',
].join(' ');

const importLocation = (result: { importId: string }, { siteId }: Record<string, string>) =>
  `/v1/sites/${siteId}/imports/${result.importId}`;

@ApiTags('imports')
@Controller('v1/sites/:siteId')
export class ImportsController {
  constructor(
    private readonly imports: ImportsService,
    private readonly slots: UploadSlots,
  ) {}

  /** Lines are validated and stored in batches while the body streams in; the answer comes when all of it is stored. */
  @Post('urls/import')
  @RequireScope('write')
  @ApiUploadBody(
    ['application/x-ndjson', 'text/csv', 'application/gzip'],
    'one URL entry per line (NDJSON) or row (CSV), optionally gzipped',
  )
  @ApiOperation({ summary: 'Import URLs from an NDJSON or CSV upload', description: UPLOAD_FORMATS })
  @ZodQuery(importQuery)
  @Idempotent()
  @ZodCreated(
    201,
    uploadResultView,
    importLocation,
    'the import completed; rejected lines are listed at …/imports/{importId}/rejections',
  )
  @ApiErrors(404, 409)
  async upload(
    @TenantId() tenantId: string,
    @Param('siteId') siteId: string,
    @Query() query: unknown,
    @Req() request: FastifyRequest,
  ) {
    const { mode, format } = parseInput(importQuery, query, 'query');
    const body = request.body as Readable | undefined;
    const resolved = format ?? formatOfContentType(request.headers['content-type']);
    if (!resolved || typeof body?.pipe !== 'function') {
      throw new DomainError(
        'invalid',
        'UNSUPPORTED_MEDIA_TYPE',
        'send the upload as application/x-ndjson or text/csv (Content-Encoding: gzip allowed)',
      );
    }
    const contentEncoding = request.headers['content-encoding'];
    return this.slots.run(tenantId, () =>
      this.imports.upload(tenantId, siteId, { format: resolved, mode, body, contentEncoding }),
    );
  }

  @Post('imports/sitemaps')
  @RequireScope('write')
  @ZodBody(sitemapImportInput)
  @Idempotent()
  @ZodCreated(
    202,
    uploadResultView.pick({ importId: true, status: true }),
    importLocation,
    'queued; poll GET …/imports/{importId}',
  )
  @ApiErrors(404)
  @ApiOperation({ summary: 'Import URLs from an existing sitemap or robots.txt on the web' })
  importSitemaps(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    return this.imports.importSitemaps(tenantId, siteId, parseInput(sitemapImportInput, body).url);
  }

  @Get('imports')
  @ZodQuery(cursorQuery)
  @ZodResponse(200, pageOfSchema(importView), 'newest first')
  @ApiErrors(404)
  @ApiOperation({ summary: 'List the imports of a site, newest first' })
  async list(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Query() query: unknown) {
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    return restPage(await this.imports.list(tenantId, siteId, { after: cursor, first: limit }));
  }

  @Get('imports/:importId')
  @ZodResponse(200, importView)
  @ApiErrors(404)
  @ApiOperation({ summary: 'Get an import with its progress' })
  get(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Param('importId') importId: string) {
    return this.imports.get(tenantId, siteId, importId);
  }

  @Get('imports/:importId/rejections')
  @ZodQuery(cursorQuery)
  @ZodResponse(200, pageOfSchema(rejectionView), 'in the order they were found')
  @ApiErrors(404)
  @ApiOperation({ summary: 'List the rejected lines of an import' })
  async rejections(
    @TenantId() tenantId: string,
    @Param('siteId') siteId: string,
    @Param('importId') importId: string,
    @Query() query: unknown,
  ) {
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    return restPage(await this.imports.rejections(tenantId, siteId, importId, { after: cursor, first: limit }));
  }

  @Get('imports/:importId/warnings')
  @ApiOperation({
    summary: 'repairs made to stored lines',
    description:
      'A sitemaps import keeps a page whose loc is good and repairs the rest (see docs/importing.md); each repair is listed here, with the code a rejection would have had.',
  })
  @ZodQuery(cursorQuery)
  @ZodResponse(200, pageOfSchema(warningView), 'in the order they were found')
  @ApiErrors(404)
  async warnings(
    @TenantId() tenantId: string,
    @Param('siteId') siteId: string,
    @Param('importId') importId: string,
    @Query() query: unknown,
  ) {
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    return restPage(await this.imports.warnings(tenantId, siteId, importId, { after: cursor, first: limit }));
  }
}
