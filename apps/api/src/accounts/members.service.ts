import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { PersonRepository, TenantRepository, type AuditActor, type MemberView } from '@sitemaps/data';
import {
  assertKeepsAnOwner,
  assertMayManage,
  checkPassword,
  DomainError,
  hashToken,
  newToken,
  INVITATION_TTL_MS,
  notFound,
  normaliseEmail,
  parseRole,
  type MemberManager,
  type Role,
} from '@sitemaps/domain';
import { CONFIG } from '@sitemaps/core';
import { isOperator, type Principal } from '../auth/principal';
import { uuidKey } from '../common/pagination';

import type { MailProducer } from '@sitemaps/jobs';
import type { z } from 'zod';
import { mailStatusEnum } from './account.schemas';
import { AccountsService, assertMailConfigured, type NewSession } from './accounts.service';
import { MAIL_PRODUCER, PASSWORD_HASHER } from './accounts.tokens';
import type { PasswordHasher } from './password.hasher';

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  invitedBy: string;
  expiresAt: Date;
  createdAt: Date;
  mail: { status: z.infer<typeof mailStatusEnum>; error: string | null };
}

/** Who may belong to a tenant: invitations by email, the members and their roles. */
@Injectable()
export class MembersService {
  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly people: PersonRepository,
    private readonly tenants: TenantRepository,
    private readonly accounts: AccountsService,
    @Inject(PASSWORD_HASHER) private readonly passwords: PasswordHasher,
    @Inject(MAIL_PRODUCER) private readonly mail: MailProducer,
  ) {}

  async members(tenantId: string): Promise<(MemberView & { role: Role })[]> {
    return (await this.people.members(tenantId)).map((m) => ({ ...m, role: parseRole(m.role) }));
  }

  /**
   * Stores an invitation to join the tenant with this role and queues its email: the worker mints
   * the link (it works once, for a week) and sends it; the invitation shows how that went.
   */
  async invite(
    principal: Principal,
    invitation: { tenantId: string; email: string; role: Role },
    actor: AuditActor,
  ): Promise<InvitationView> {
    const { tenantId, email, role } = invitation;
    assertMayManage(managerOf(principal), role);
    assertMailConfigured(this.config);
    const tenant = await this.tenants.findById(tenantId);
    if (!tenant) throw notFound('tenant', tenantId);
    const row = await this.people.createInvitation(
      {
        tenantId,
        email: normaliseEmail(email),
        role,
        // A token nobody ever sees: the link works once the mail job replaces it with the mailed one.
        tokenHash: hashToken(newToken()),
        invitedBy: actor.actor,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      },
      actor,
    );
    await this.mail.invitation(row.id);
    return presentInvitation(row);
  }

  async pendingInvitations(tenantId: string): Promise<InvitationView[]> {
    return (await this.people.pendingInvitations(tenantId)).map(presentInvitation);
  }

  async revokeInvitation(tenantId: string, id: string): Promise<void> {
    if (!uuidKey.safeParse(id).success || !(await this.people.deleteInvitation(tenantId, id)))
      throw new DomainError('not_found', 'INVITATION_NOT_FOUND', `invitation ${id} not found`);
  }

  async remove(principal: Principal, personId: string, actor: AuditActor): Promise<void> {
    const { tenantId } = tenantOf(principal);
    const manager = managerOf(principal);
    const removed = uuidKey.safeParse(personId).success
      ? await this.people.removeMember(
          tenantId,
          personId,
          (membership, ownersLeft) => {
            // Leaving a tenant oneself is always allowed, as long as an owner stays.
            if (principal.kind !== 'tenant' || principal.person?.personId !== personId)
              assertMayManage(manager, parseRole(membership.role));
            assertKeepsAnOwner(ownersLeft);
          },
          actor,
        )
      : null;
    if (!removed) throw new DomainError('not_found', 'MEMBER_NOT_FOUND', `member ${personId} not found`);
  }

  /**
   * Accepts an invitation and signs the person in. A new person chooses a name and a password; a
   * person who already has an account proves it with their password.
   */
  async accept(token: string, input: { name?: string | undefined; password: string }): Promise<NewSession> {
    const accepted = await this.people.acceptInvitation(hashToken(token), async (invitation) => {
      const existing = await this.people.findByEmail(invitation.email);
      if (existing) {
        if (!(await this.passwords.verify(existing.passwordHash, input.password)))
          throw new DomainError(
            'unauthenticated',
            'SIGN_IN_FAILED',
            'this email has an account: accept with its password',
          );
        return { existing };
      }
      checkPassword(input.password);
      const name = input.name?.trim() || invitation.email.split('@')[0] || invitation.email;
      return { create: { name, passwordHash: await this.passwords.hash(input.password) } };
    });
    if (!accepted)
      throw new DomainError('invalid', 'INVITATION_INVALID', 'this invitation is unknown, used or expired');
    return this.accounts.startSession(accepted.person.id);
  }
}

function tenantOf(principal: Principal): { tenantId: string } {
  if (principal.kind !== 'tenant') throw new Error('a tenant route without a tenant principal');
  return { tenantId: principal.tenantId };
}

function managerOf(principal: Principal): MemberManager {
  if (isOperator(principal)) return { platform: true };
  if (principal.kind === 'tenant' && principal.person) return { role: principal.person.role };
  return { key: true };
}

function presentInvitation(row: {
  id: string;
  email: string;
  role: string;
  invitedBy: string;
  expiresAt: Date;
  createdAt: Date;
  mailStatus: string;
  mailError: string | null;
}): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: parseRole(row.role),
    invitedBy: row.invitedBy,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    mail: { status: mailStatusEnum.parse(row.mailStatus), error: row.mailError },
  };
}
