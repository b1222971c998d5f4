import {
  Args,
  Context,
  GraphQLISODateTime,
  ID,
  Mutation,
  Parent,
  Query,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { BuildConnection } from '../builds/build.model';
import { BuildsService } from '../builds/builds.service';
import { connectionArgs } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ConnectionArgs, connectionComplexity, connectionOf } from '../graphql/connection.model';
import { requestLoader } from '../graphql/request-loaders';
import { ShardConnection } from '../shards/shard.model';
import { ShardsService } from '../shards/shards.service';
import { UrlConnection, UrlFilterArgs } from '../urls/url.model';
import { urlFilterOf } from '../urls/urls.resolver';
import { UrlsService } from '../urls/urls.service';
import {
  CreateSiteInput,
  CreateSitePayload,
  DeleteSiteInput,
  DeleteSitePayload,
  SiteConnection,
  SiteModel,
  UpdateSiteInput,
  UpdateSitePayload,
  VerifySiteInput,
  VerifySitePayload,
} from './site.model';
import type { IdInput } from '../graphql/relay-mutation';
import { createSiteInput, updateSiteInput, type SiteView } from './site.schemas';
import { SitesService } from './sites.service';

@Resolver(() => SiteModel)
export class SitesResolver {
  constructor(
    private readonly sitesService: SitesService,
    private readonly urlsService: UrlsService,
    private readonly buildsService: BuildsService,
    private readonly shardsService: ShardsService,
  ) {}

  @Query(() => SiteConnection, { nullable: true, complexity: connectionComplexity })
  async sites(@TenantId() tenantId: string, @Args() args: ConnectionArgs) {
    return connectionOf(await this.sitesService.list(tenantId, parseInput(connectionArgs, args, 'arguments')), args);
  }

  @Query(() => SiteModel, { nullable: true })
  site(@TenantId() tenantId: string, @Args('id', { type: () => ID }) id: string, @Context('req') request: object) {
    return requestLoader<string, SiteView>(request, `site:${tenantId}`, (ids) =>
      this.sitesService.viewMany(tenantId, ids),
    ).load(id);
  }

  @Mutation(() => CreateSitePayload)
  @RequireScope('write')
  async createSite(
    @TenantId() tenantId: string,
    @Args('input', { type: () => CreateSiteInput }) input: CreateSiteInput,
  ) {
    return { site: await this.sitesService.create(tenantId, parseInput(createSiteInput, input, 'input')) };
  }

  @Mutation(() => UpdateSitePayload, { description: 'settings: scheme, defaults, robots rules, rebuild schedule, …' })
  @RequireScope('write')
  async updateSite(
    @TenantId() tenantId: string,
    @Args('input', { type: () => UpdateSiteInput }) { id, ...settings }: UpdateSiteInput,
  ) {
    return { site: await this.sitesService.update(tenantId, id, parseInput(updateSiteInput, settings, 'input')) };
  }

  @Mutation(() => VerifySitePayload, { description: 'queues a check of the hostname proof; see verification.status' })
  @RequireScope('write')
  async verifySite(@TenantId() tenantId: string, @Args('input', { type: () => VerifySiteInput }) input: IdInput) {
    return { site: await this.sitesService.verify(tenantId, input.id) };
  }

  @Mutation(() => DeleteSitePayload)
  @RequireScope('write')
  async deleteSite(@TenantId() tenantId: string, @Args('input', { type: () => DeleteSiteInput }) input: IdInput) {
    await this.sitesService.remove(tenantId, input.id);
    return { deletedSiteId: input.id };
  }

  // Fields of a site already loaded for this tenant; the services check the tenant again anyway.

  @ResolveField(() => UrlConnection, { complexity: connectionComplexity })
  async urls(@TenantId() tenantId: string, @Parent() site: SiteModel, @Args() args: UrlFilterArgs) {
    const { filter, page } = urlFilterOf(args);
    return connectionOf(await this.urlsService.list(tenantId, site.id, filter, page), args);
  }

  @ResolveField(() => BuildConnection, { complexity: connectionComplexity, description: 'newest first' })
  async builds(@TenantId() tenantId: string, @Parent() site: SiteModel, @Args() args: ConnectionArgs) {
    return connectionOf(
      await this.buildsService.list(tenantId, site.id, parseInput(connectionArgs, args, 'arguments')),
      args,
    );
  }

  @ResolveField(() => ShardConnection, { complexity: connectionComplexity })
  async shards(@TenantId() tenantId: string, @Parent() site: SiteModel, @Args() args: ConnectionArgs) {
    return connectionOf(
      await this.shardsService.list(tenantId, site.id, parseInput(connectionArgs, args, 'arguments')),
      args,
    );
  }

  @ResolveField(() => GraphQLISODateTime, { nullable: true, description: 'next run of the scheduled full rebuild' })
  async nextRebuildAt(@TenantId() tenantId: string, @Parent() site: SiteModel) {
    return (await this.sitesService.schedule(tenantId, site.id)).nextRunAt;
  }
}
