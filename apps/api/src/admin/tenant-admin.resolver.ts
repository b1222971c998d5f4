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
  DeleteTenantInput,
  DeleteTenantPayload,
  ResumeTenantInput,
  ResumeTenantPayload,
  SuspendTenantInput,
  SuspendTenantPayload,
  UpdateTenantInput,
  UpdateTenantPayload,
} from './admin.model';
import type { IdInput } from '../graphql/relay-mutation';
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

  @Mutation(() => UpdateTenantPayload, { description: 'platform key only: name and quotas' })
  @PlatformOnly()
  async updateTenant(
    @Args('input', { type: () => UpdateTenantInput }) { id, ...changes }: UpdateTenantInput,
    @AuditActorOf() actor: AuditActor,
  ) {
    return { tenant: await this.admin.update(id, parseInput(updateTenantInput, changes, 'input'), actor) };
  }

  @Mutation(() => SuspendTenantPayload, {
    description: 'platform key only: keys answer 401 TENANT_SUSPENDED, sites 404, no builds',
  })
  @PlatformOnly()
  async suspendTenant(
    @Args('input', { type: () => SuspendTenantInput }) { id, reason }: SuspendTenantInput,
    @AuditActorOf() actor: AuditActor,
  ) {
    return { tenant: await this.admin.suspend(id, reason?.trim() || null, actor) };
  }

  @Mutation(() => ResumeTenantPayload, { description: 'platform key only' })
  @PlatformOnly()
  async resumeTenant(
    @Args('input', { type: () => ResumeTenantInput }) input: IdInput,
    @AuditActorOf() actor: AuditActor,
  ) {
    return { tenant: await this.admin.resume(input.id, actor) };
  }

  @Mutation(() => DeleteTenantPayload, { description: 'platform key only: the tenant with everything it has' })
  @PlatformOnly()
  async deleteTenant(
    @Args('input', { type: () => DeleteTenantInput }) input: IdInput,
    @AuditActorOf() actor: AuditActor,
  ) {
    await this.admin.remove(input.id, actor);
    return { deletedTenantId: input.id };
  }
}
