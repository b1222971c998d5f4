import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { connectionArgs } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ConnectionArgs, connectionComplexity, connectionOf } from '../graphql/connection.model';
import { SiteModel } from '../sites/site.model';
import { SitesService } from '../sites/sites.service';
import { BuildConnection, BuildModel, CreateBuildInput, CreateBuildPayload } from './build.model';
import { BuildsService } from './builds.service';

@Resolver(() => BuildModel)
export class BuildsResolver {
  constructor(
    private readonly buildsService: BuildsService,
    private readonly sitesService: SitesService,
  ) {}

  @Query(() => BuildConnection, { nullable: true, complexity: connectionComplexity, description: 'newest first' })
  async builds(
    @TenantId() tenantId: string,
    @Args('siteId', { type: () => ID }) siteId: string,
    @Args() args: ConnectionArgs,
  ) {
    return connectionOf(
      await this.buildsService.list(tenantId, siteId, parseInput(connectionArgs, args, 'arguments')),
      args,
    );
  }

  @Query(() => BuildModel, { nullable: true })
  build(
    @TenantId() tenantId: string,
    @Args('siteId', { type: () => ID }) siteId: string,
    @Args('id', { type: () => ID }) id: string,
  ) {
    return this.buildsService.get(tenantId, siteId, id);
  }

  @Mutation(() => CreateBuildPayload, { description: 'queues a build; poll build(siteId, id) for its status' })
  @RequireScope('write')
  async createBuild(
    @TenantId() tenantId: string,
    @Args('input', { type: () => CreateBuildInput }) { siteId, full }: CreateBuildInput,
  ) {
    return { build: await this.buildsService.create(tenantId, siteId, full) };
  }

  @ResolveField(() => SiteModel)
  site(@TenantId() tenantId: string, @Parent() build: BuildModel) {
    return this.sitesService.view(tenantId, build.siteId);
  }
}
