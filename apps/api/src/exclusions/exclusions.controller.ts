import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, ZodBody, ZodResponse } from '../openapi/zod-openapi';
import { exclusionRulesInput, exclusionsChangeView, exclusionsView } from './exclusion.schemas';
import { ExclusionsService } from './exclusions.service';

@ApiTags('exclusions')
@Controller('v1/sites/:siteId/exclusions')
export class ExclusionsController {
  constructor(private readonly exclusions: ExclusionsService) {}

  @Get()
  @ZodResponse(200, exclusionsView)
  @ApiErrors(404)
  @ApiOperation({ summary: "The site's URL exclusion rules, with how many URLs each excludes" })
  view(@TenantId() tenantId: string, @Param('siteId') siteId: string) {
    return this.exclusions.view(tenantId, siteId);
  }

  @Put()
  @RequireScope('write')
  @ZodBody(exclusionRulesInput)
  @ZodResponse(200, exclusionsChangeView, 'the rules stored; the shards whose files change are rebuilt')
  @ApiErrors(400, 404)
  @ApiOperation({
    summary: 'Replace the exclusion rules',
    description:
      'URLs a rule matches stay stored (GET …/urls?excluded=true lists them) but leave every published file and ' +
      "every published hreflang link; removing the rule publishes them again. `prefix` matches the path's start, " +
      '`glob` the whole path and query (`*` any run of characters), `query` a query parameter.',
  })
  async replace(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    // Shape first (unknown fields, kinds), then the domain's rules (field paths as `rules[2].path`).
    const { rules } = parseInput(exclusionRulesInput, body);
    return this.exclusions.replace(tenantId, siteId, rules);
  }
}
