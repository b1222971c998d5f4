import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PlatformOnly } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, ZodQuery, ZodResponse } from '../openapi/zod-openapi';
import { crawlInsightQuery, crawlInsightView, crawlTotalsView } from './crawl.schemas';
import { CrawlsService } from './crawls.service';

@ApiTags('crawls')
@Controller('v1/sites/:siteId/crawls')
export class CrawlsController {
  constructor(private readonly crawls: CrawlsService) {}

  @Get()
  @ZodQuery(crawlInsightQuery)
  @ZodResponse(200, crawlInsightView)
  @ApiErrors(400, 404)
  @ApiOperation({
    summary: 'What search engines read of a site, and when',
    description:
      'Per published file, when each verified crawler (reverse DNS, forward-confirmed) last read it and which ' +
      'changed files they have not read since; fetches per day per crawler, verified and not; errors served to ' +
      'crawlers. Counted by the public server, written every CRAWL_FLUSH_MS.',
  })
  async insight(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Query() query: unknown) {
    const { days } = parseInput(crawlInsightQuery, query, 'query');
    return this.crawls.insight(tenantId, siteId, days);
  }
}

/** The operator's totals: every site's fetches per day and crawler (ADMIN_API_KEY only). */
@ApiTags('admin')
@Controller('v1/admin/crawls')
@PlatformOnly()
export class CrawlsAdminController {
  constructor(private readonly crawls: CrawlsService) {}

  @Get()
  @ZodQuery(crawlInsightQuery)
  @ZodResponse(200, crawlTotalsView)
  @ApiErrors(400, 403)
  @ApiOperation({ summary: "Every site's sitemap fetches per day and crawler, verified and not" })
  async totals(@Query() query: unknown) {
    return this.crawls.totals(parseInput(crawlInsightQuery, query, 'query').days);
  }
}
