import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, ApiUploadBody, ZodResponse } from '../openapi/zod-openapi';
import { validateUrlInput, validationView } from './validate.schemas';
import { ValidateService } from './validate.service';

@ApiTags('validate')
@Controller('v1/validate')
export class ValidateController {
  constructor(private readonly validation: ValidateService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('read')
  @ApiOperation({
    summary: 'Validate a sitemap or sitemap index',
    description:
      'Upload the document (application/xml, text/xml, or gzip; a text sitemap as application/octet-stream; at most 50 MiB), or send {"url", "follow"} as JSON to have it fetched. ' +
      "It is checked against the published XSDs and the protocol rules (50,000 entries, 50 MiB, one host and one scheme, the file's own on its own host, absolute <loc> under 2,048 characters, no nested index); a text sitemap (one URL a line, UTF-8) by the same rules. " +
      'every problem names its file, line and rule. 200 whether or not the document is valid: see `valid`.',
  })
  @ApiUploadBody(
    ['application/xml', 'text/xml', 'application/gzip'],
    'the sitemap itself, or where to fetch it',
    validateUrlInput,
  )
  @ZodResponse(200, validationView)
  @ApiErrors(400, 413)
  validate(@Req() request: FastifyRequest, @TenantId() tenantId: string) {
    const body = request.body as Readable | Record<string, unknown> | undefined;
    if (body && typeof (body as Readable).pipe === 'function')
      return this.validation.validateUpload(tenantId, body as Readable);
    const { url, follow } = parseInput(validateUrlInput, body);
    return this.validation.validateUrl(tenantId, url, follow);
  }
}
