import { ArgsType, Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import type { VerificationStatus } from '@sitemaps/domain';
import { ConnectionArgs, ConnectionType } from '../graphql/connection.model';
import { JsonScalar } from '../graphql/json.scalar';
import { IdInputType, PayloadType } from '../graphql/relay-mutation';
import { VerificationStatusEnum } from '../sites/site.model';
import type { AuditEntryView, TenantView } from './admin.schemas';

@ObjectType('Tenant')
export class TenantModel implements TenantView {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => Int, { nullable: true }) maxSites!: number | null;
  @Field(() => Int, { nullable: true }) maxUrls!: number | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'set while suspended' }) suspendedAt!: Date | null;
  @Field(() => String, { nullable: true }) suspendedReason!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => Int) siteCount!: number;
}

@ObjectType()
export class TenantConnection extends ConnectionType(TenantModel, 'Tenant') {}

@ArgsType()
export class TenantListArgs extends ConnectionArgs {
  @Field(() => Boolean, { nullable: true, description: 'only suspended (true) or active (false) tenants' }) suspended?:
    boolean | null;
}

@InputType()
export class UpdateTenantInput {
  @Field(() => ID, { description: 'the tenant to change' }) id!: string;
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => Int, { nullable: true }) maxSites?: number | null;
  @Field(() => Int, { nullable: true }) maxUrls?: number | null;
}

@InputType()
export class SuspendTenantInput {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true, description: 'shown to the operator, not to the tenant' }) reason?:
    string | null;
}

export const UpdateTenantPayload = PayloadType('UpdateTenant', 'tenant', () => TenantModel);
export const SuspendTenantPayload = PayloadType('SuspendTenant', 'tenant', () => TenantModel);
export const ResumeTenantPayload = PayloadType('ResumeTenant', 'tenant', () => TenantModel);
export const DeleteTenantPayload = PayloadType('DeleteTenant', 'deletedTenantId', () => ID);
export const ResumeTenantInput = IdInputType('ResumeTenant');
export const DeleteTenantInput = IdInputType('DeleteTenant', 'the tenant to delete, with everything it has');

@ObjectType('HostnameClaim')
export class HostnameClaimModel {
  @Field(() => ID) siteId!: string;
  @Field(() => ID) tenantId!: string;
  @Field(() => String) tenantName!: string;
  @Field(() => String) hostname!: string;
  @Field(() => VerificationStatusEnum) status!: VerificationStatus;
  @Field(() => GraphQLISODateTime, { nullable: true }) verifiedAt!: Date | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
}

@ObjectType('AuditEntry')
export class AuditEntryModel implements AuditEntryView {
  @Field(() => ID) id!: string;
  @Field(() => String) actor!: string;
  @Field(() => String, { nullable: true }) actorIp!: string | null;
  @Field(() => String) action!: string;
  @Field(() => String) targetType!: string;
  @Field(() => String) targetId!: string;
  @Field(() => JsonScalar, { nullable: true }) before!: Record<string, unknown> | null;
  @Field(() => JsonScalar, { nullable: true }) after!: Record<string, unknown> | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
}

@ObjectType()
export class AuditEntryConnection extends ConnectionType(AuditEntryModel, 'AuditEntry') {}

@ArgsType()
export class AuditLogArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: "one object's entries, e.g. a tenant id" }) targetId?:
    string | null;
}
