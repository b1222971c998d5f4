import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { TenantId } from '../auth/current-tenant.decorator';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, ZodQuery, ZodResponse } from '../openapi/zod-openapi';
import { conflictReportQuery, conflictReportView } from './exclusion.schemas';
import { ConflictsService } from './conflicts.service';

@ApiTags('exclusions')
@Controller('v1/sites/:siteId/conflicts')
export class ConflictsController {
  constructor(private readonly conflicts: ConflictsService) {}

  @Get()
  @ZodQuery(conflictReportQuery)
  @ZodResponse(200, conflictReportView)
  @ApiErrors(404)
  @ApiOperation({
    summary: 'Check every URL of the site against its robots.txt, its exclusions and the clock',
    description:
      'ROBOTS_DISALLOWED: the URL is disallowed for Googlebot by the robots.txt the platform serves; LASTMOD_IN_FUTURE; ' +
      'HREFLANG_TO_EXCLUDED / HREFLANG_TO_DISALLOWED: an hreflang link to an excluded or disallowed page of the site. ' +
      'PUT …/urls returns the same codes as warnings for the entries it stores.',
  })
  report(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Query() query: unknown) {
    const { limit } = parseInput(conflictReportQuery, query, 'query');
    return this.conflicts.report(tenantId, siteId, limit);
  }
}
