import { Args, ID, Int, Query, Resolver } from '@nestjs/graphql';
import { TenantId } from '../auth/current-tenant.decorator';
import { parseInput } from '../errors/parse-input';
import { crawlInsightQuery } from './crawl.schemas';
import { CrawlInsightModel } from './crawl.model';
import { CrawlsService } from './crawls.service';

@Resolver()
export class CrawlsResolver {
  constructor(private readonly crawlsService: CrawlsService) {}

  @Query(() => CrawlInsightModel, { nullable: true, description: 'what search engines read of a site, and when' })
  async crawls(
    @TenantId() tenantId: string,
    @Args('siteId', { type: () => ID }) siteId: string,
    @Args('days', { type: () => Int, nullable: true }) days?: number,
  ) {
    const parsed = parseInput(crawlInsightQuery, days === undefined || days === null ? {} : { days }, 'arguments');
    return this.crawlsService.insight(tenantId, siteId, parsed.days);
  }
}
