import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { PLATFORM_ROLES, ROLES, type PlatformRole, type Role } from '@sitemaps/domain';
import { IdInputType, PayloadType } from '../graphql/relay-mutation';
import { graphqlEnum } from '../graphql/zod-graphql';
import { invitationView, mailStatusEnum } from './account.schemas';

export const RoleEnum = graphqlEnum('Role', ROLES, "a person's role in a tenant: the key scopes it grants");
export const PlatformRoleEnum = graphqlEnum('PlatformRole', PLATFORM_ROLES);
export const MailStatusEnum = graphqlEnum(
  'MailStatus',
  mailStatusEnum.options,
  invitationView.shape.mail.shape.status.description,
);

@ObjectType('Person')
export class PersonModel {
  @Field(() => ID) id!: string;
  @Field(() => String) email!: string;
  @Field(() => String) name!: string;
  @Field(() => PlatformRoleEnum, {
    nullable: true,
    description: 'operator: the operator operations, when acting in no tenant',
  })
  platformRole!: PlatformRole | null;
}

@ObjectType('Membership')
export class MembershipModel {
  @Field(() => ID) tenantId!: string;
  @Field(() => String) tenantName!: string;
  @Field(() => RoleEnum) role!: Role;
  @Field(() => Boolean) tenantSuspended!: boolean;
}

@ObjectType('Account', { description: 'the signed-in person, their tenants and roles' })
export class AccountModel {
  @Field(() => PersonModel) person!: PersonModel;
  @Field(() => [MembershipModel]) memberships!: MembershipModel[];
}

@ObjectType('Member', { description: 'a person of the tenant, with their role' })
export class MemberModel {
  @Field(() => ID) personId!: string;
  @Field(() => String) email!: string;
  @Field(() => String) name!: string;
  @Field(() => RoleEnum) role!: Role;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
}

@ObjectType('InvitationMail', { description: 'the delivery of the invitation email (the worker sends it)' })
export class InvitationMailModel {
  @Field(() => MailStatusEnum) status!: (typeof mailStatusEnum.options)[number];
  @Field(() => String, { nullable: true, description: "the SMTP server's last refusal" }) error!: string | null;
}

@ObjectType('Invitation')
export class InvitationModel {
  @Field(() => ID) id!: string;
  @Field(() => String) email!: string;
  @Field(() => RoleEnum) role!: Role;
  @Field(() => String, { description: 'person:<id> or key:<id>' }) invitedBy!: string;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => InvitationMailModel) mail!: InvitationMailModel;
}

@InputType()
export class CreateInvitationInput {
  @Field(() => String) email!: string;
  @Field(() => RoleEnum, { nullable: true, description: 'viewer when omitted' }) role?: Role;
}

@InputType()
export class SignOutEverywhereInput {
  @Field(() => Boolean, {
    nullable: true,
    description: 'keep the session making this request (default: end it too, and clear its cookie)',
  })
  keepThisSession?: boolean;
}

@InputType()
export class RemoveMemberInput {
  @Field(() => ID, { description: 'the person to remove from the tenant' }) personId!: string;
}

@ObjectType('SignOutEverywherePayload')
export class SignOutEverywherePayload {
  @Field(() => Int) sessionsEnded!: number;
}

export const CreateInvitationPayload = PayloadType('CreateInvitation', 'invitation', () => InvitationModel);
export const RevokeInvitationInput = IdInputType('RevokeInvitation', 'the pending invitation to revoke');
export const RevokeInvitationPayload = PayloadType('RevokeInvitation', 'revokedInvitationId', () => ID);
export const RemoveMemberPayload = PayloadType('RemoveMember', 'removedPersonId', () => ID);
