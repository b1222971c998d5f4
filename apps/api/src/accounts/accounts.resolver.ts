// People in GraphQL: the signed-in account, signing out everywhere, a tenant's members and
// invitations. The session cookie authenticates as in REST, and every GraphQL request with it is
// a POST, so it carries the session's X-CSRF-Token like any cookie write (the guard checks it).
import { createParamDecorator, Inject, type ExecutionContext } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG } from '@sitemaps/core';
import type { AuditActor } from '@sitemaps/data';
import { PersonOnly, RequireScope } from '../auth/api-key.guard';
import { AuditActorOf } from '../auth/audit-actor.decorator';
import { TenantId } from '../auth/current-tenant.decorator';
import type { PersonActor, Principal } from '../auth/principal';
import { httpOf } from '../auth/transport-context';
import { parseInput } from '../errors/parse-input';
import type { IdInput } from '../graphql/relay-mutation';
import {
  AccountModel,
  CreateInvitationInput,
  CreateInvitationPayload,
  InvitationModel,
  MemberModel,
  RemoveMemberInput,
  RemoveMemberPayload,
  RevokeInvitationInput,
  RevokeInvitationPayload,
  SignOutEverywhereInput,
  SignOutEverywherePayload,
} from './account.model';
import { createInvitationInput } from './account.schemas';
import { AccountsService, clearedSessionCookie } from './accounts.service';
import { MembersService } from './members.service';

/** The request's principal (the guard has set it). */
const PrincipalOf = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => httpOf(context).request.principal,
);

/** The person behind a PersonOnly operation, and the reply (to clear the cookie). */
interface SignedIn {
  person: PersonActor;
  reply: FastifyReply;
}
const SignedIn = createParamDecorator((_: unknown, context: ExecutionContext): SignedIn => {
  const { request, reply } = httpOf(context);
  const { principal } = request;
  const person = principal.kind === 'person' || principal.kind === 'tenant' ? principal.person : undefined;
  if (!person) throw new Error('PersonOnly operation without a person');
  return { person, reply };
});

@Resolver()
export class AccountsResolver {
  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly accounts: AccountsService,
    private readonly membersService: MembersService,
  ) {}

  @Query(() => AccountModel, {
    nullable: true,
    description: 'the signed-in person, their tenants and roles (a session, not a key)',
  })
  @PersonOnly()
  me(@SignedIn() { person }: SignedIn) {
    return this.accounts.account(person.personId, person.csrfToken);
  }

  @Mutation(() => SignOutEverywherePayload, { description: 'ends every session of the signed-in person' })
  @PersonOnly()
  async signOutEverywhere(
    @SignedIn() { person, reply }: SignedIn,
    @Args('input', { type: () => SignOutEverywhereInput, nullable: true }) input?: SignOutEverywhereInput | null,
  ) {
    const keep = input?.keepThisSession === true;
    const sessionsEnded = keep
      ? await this.accounts.signOutOthers(person.personId, person.sessionId)
      : await this.accounts.signOutEverywhere(person.personId);
    if (!keep) void reply.header('set-cookie', clearedSessionCookie(this.config));
    return { sessionsEnded };
  }

  @Query(() => [MemberModel], {
    nullable: true,
    description: 'the people of the tenant and their roles (every one: a short list)',
  })
  @RequireScope('read')
  members(@TenantId() tenantId: string) {
    return this.membersService.members(tenantId);
  }

  @Query(() => [InvitationModel], {
    nullable: true,
    description: 'pending invitations, oldest first, with their email delivery',
  })
  @RequireScope('admin')
  invitations(@TenantId() tenantId: string) {
    return this.membersService.pendingInvitations(tenantId);
  }

  @Mutation(() => CreateInvitationPayload, {
    description: 'stores the invitation and queues its email: the worker mails the link (see mail.status)',
  })
  @RequireScope('admin')
  async createInvitation(
    @PrincipalOf() principal: Principal,
    @TenantId() tenantId: string,
    @Args('input', { type: () => CreateInvitationInput }) input: CreateInvitationInput,
    @AuditActorOf() actor: AuditActor,
  ) {
    const { email, role } = parseInput(
      createInvitationInput,
      { email: input.email, ...(input.role ? { role: input.role } : {}) },
      'input',
    );
    return { invitation: await this.membersService.invite(principal, { tenantId, email, role }, actor) };
  }

  @Mutation(() => RevokeInvitationPayload)
  @RequireScope('admin')
  async revokeInvitation(
    @TenantId() tenantId: string,
    @Args('input', { type: () => RevokeInvitationInput }) input: IdInput,
  ) {
    await this.membersService.revokeInvitation(tenantId, input.id);
    return { revokedInvitationId: input.id };
  }

  @Mutation(() => RemoveMemberPayload, {
    description: 'the person no longer reaches the tenant; leaving oneself is allowed',
  })
  @RequireScope('admin')
  async removeMember(
    @PrincipalOf() principal: Principal,
    @Args('input', { type: () => RemoveMemberInput }) input: RemoveMemberInput,
    @AuditActorOf() actor: AuditActor,
  ) {
    await this.membersService.remove(principal, input.personId, actor);
    return { removedPersonId: input.personId };
  }
}
