import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '@sitemaps/data';
import { PlatformOnly } from '../auth/api-key.guard';
import { AuditActorOf } from '../auth/audit-actor.decorator';
import { connectionArgs } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { connectionComplexity, connectionOf } from '../graphql/connection.model';
import {
  AuditEntryConnection,
  AuditLogArgs,
  HostnameClaimModel,
  TenantConnection,
  TenantListArgs,
  TenantModel,
  UpdateTenantInput,
} from './admin.model';
import { updateTenantInput } from './admin.schemas';
import { TenantAdminService } from './tenant-admin.service';

/** The operator's operations, as REST's TenantAdminController: the platform key only. */
@Resolver()
export class TenantAdminResolver {
  constructor(private readonly admin: TenantAdminService) {}

  @Query(() => TenantConnection, {
    nullable: true,
    complexity: connectionComplexity,
    description: 'platform key only; oldest first',
  })
  @PlatformOnly()
  async tenants(@Args() args: TenantListArgs) {
    const page = parseInput(connectionArgs, { first: args.first, after: args.after }, 'arguments');
    return connectionOf(await this.admin.list({ ...page, suspended: args.suspended ?? undefined }), args);
  }

  @Query(() => TenantModel, { nullable: true, description: 'platform key only' })
  @PlatformOnly()
  tenant(@Args('id', { type: () => ID }) id: string) {
    return this.admin.get(id);
  }

  @Query(() => [HostnameClaimModel], {
    nullable: true,
    description: "platform key only: every tenant's site for a hostname, the verified one first",
  })
  @PlatformOnly()
  async hostnameClaims(@Args('hostname', { type: () => String }) hostname: string) {
    return (await this.admin.claims(hostname)).items;
  }

  @Query(() => AuditEntryConnection, {
    nullable: true,
    complexity: connectionComplexity,
    description: 'platform key only; newest first',
  })
  @PlatformOnly()
  async auditLog(@Args() args: AuditLogArgs) {
    const page = parseInput(connectionArgs, { first: args.first, after: args.after }, 'arguments');
    return connectionOf(await this.admin.auditLog({ ...page, targetId: args.targetId ?? undefined }), args);
  }

  @Mutation(() => TenantModel, { nullable: true, description: 'platform key only: name and quotas' })
  @PlatformOnly()
  updateTenant(
    @Args('id', { type: () => ID }) id: string,
    @Args('input', { type: () => UpdateTenantInput }) input: UpdateTenantInput,
    @AuditActorOf() actor: AuditActor,
  ) {
    return this.admin.update(id, parseInput(updateTenantInput, input, 'input'), actor);
  }

  @Mutation(() => TenantModel, {
    nullable: true,
    description: 'platform key only: keys answer 401 TENANT_SUSPENDED, sites 404, no builds',
  })
  @PlatformOnly()
  suspendTenant(
    @Args('id', { type: () => ID }) id: string,
    @Args('reason', { type: () => String, nullable: true }) reason: string | null,
    @AuditActorOf() actor: AuditActor,
  ) {
    return this.admin.suspend(id, reason?.trim() || null, actor);
  }

  @Mutation(() => TenantModel, { nullable: true, description: 'platform key only' })
  @PlatformOnly()
  resumeTenant(@Args('id', { type: () => ID }) id: string, @AuditActorOf() actor: AuditActor) {
    return this.admin.resume(id, actor);
  }

  @Mutation(() => Boolean, { nullable: true, description: 'platform key only: the tenant with everything it has' })
  @PlatformOnly()
  async deleteTenant(@Args('id', { type: () => ID }) id: string, @AuditActorOf() actor: AuditActor) {
    await this.admin.remove(id, actor);
    return true;
  }
}
