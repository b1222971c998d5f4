import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { parseInput } from '../errors/parse-input';
import { conflictReportQuery, exclusionRulesInput } from './exclusion.schemas';
import { ConflictsService } from './conflicts.service';
import {
  ConflictReportModel,
  ExclusionsModel,
  SetExclusionRulesInput,
  SetExclusionRulesPayload,
} from './exclusion.model';
import { ExclusionsService } from './exclusions.service';

@Resolver()
export class ExclusionsResolver {
  constructor(
    private readonly exclusionsService: ExclusionsService,
    private readonly conflictsService: ConflictsService,
  ) {}

  @Query(() => ConflictReportModel, { nullable: true, description: 'the launch check of GET …/conflicts' })
  async conflictReport(
    @TenantId() tenantId: string,
    @Args('siteId', { type: () => ID }) siteId: string,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number | null,
  ) {
    const parsed = parseInput(conflictReportQuery, { limit: limit ?? undefined }, 'arguments');
    const report = await this.conflictsService.report(tenantId, siteId, parsed.limit);
    return { ...report, counts: Object.entries(report.counts).map(([code, count]) => ({ code, count })) };
  }

  @Query(() => ExclusionsModel, { nullable: true, description: "a site's URL exclusion rules, as GET …/exclusions" })
  exclusions(@TenantId() tenantId: string, @Args('siteId', { type: () => ID }) siteId: string) {
    return this.exclusionsService.view(tenantId, siteId);
  }

  @Mutation(() => SetExclusionRulesPayload, { description: 'replaces the rules, as PUT …/exclusions' })
  @RequireScope('write')
  async setExclusionRules(
    @TenantId() tenantId: string,
    @Args('input', { type: () => SetExclusionRulesInput }) input: SetExclusionRulesInput,
  ) {
    // GraphQL null means absent, as omitting a field does in REST.
    const rules = input.rules.map((rule) =>
      Object.fromEntries(Object.entries(rule).filter(([, value]) => value !== null && value !== undefined)),
    );
    const parsed = parseInput(exclusionRulesInput, { rules }, 'input');
    const { changed, ...exclusions } = await this.exclusionsService.replace(tenantId, input.siteId, parsed.rules);
    return { exclusions, changed };
  }
}
