// The people aggregate: a person, their memberships in tenants, their sessions and password
// resets, and the invitations that make new members. Tokens (session, invitation, reset) arrive
// here already hashed (sha256): the plain token exists only in the cookie or the email.
import { AuditEntryRepository, type AuditActor } from '../audit/audit-entry.repository';
import type { Invitation, Membership, Person, PrismaClient, Session } from '../generated/prisma/client';

export type { Invitation, Membership, Person, Session } from '../generated/prisma/client';

export interface MembershipOfPerson {
  tenantId: string;
  tenantName: string;
  role: string;
  tenantSuspended: boolean;
}

export interface MemberView {
  personId: string;
  email: string;
  name: string;
  role: string;
  createdAt: Date;
}

/** A session with its person, found by the hash of its token (read on every cookie request). */
export type SessionWithPerson = Session & { person: Pick<Person, 'id' | 'email' | 'name' | 'platformRole'> };

/** A busy database should slow these down, not fail them (Prisma's defaults: 2 s to start, 5 s to run). */
const PEOPLE_TRANSACTION = { maxWait: 15_000, timeout: 15_000 };

export class PersonRepository {
  constructor(private readonly prisma: PrismaClient) {}

  findByEmail(email: string): Promise<Person | null> {
    return this.prisma.person.findUnique({ where: { email } });
  }

  findById(id: string): Promise<Person | null> {
    return this.prisma.person.findUnique({ where: { id } });
  }

  async membershipsOf(personId: string): Promise<MembershipOfPerson[]> {
    const rows = await this.prisma.membership.findMany({
      where: { personId },
      include: { tenant: { select: { name: true, suspendedAt: true } } },
      orderBy: [{ createdAt: 'asc' }, { tenantId: 'asc' }],
    });
    return rows.map((row) => ({
      tenantId: row.tenantId,
      tenantName: row.tenant.name,
      role: row.role,
      tenantSuspended: row.tenant.suspendedAt !== null,
    }));
  }

  /** The person's membership in this tenant with whether the tenant is suspended, or null. */
  async membership(personId: string, tenantId: string): Promise<MembershipOfPerson | null> {
    const row = await this.prisma.membership.findUnique({
      where: { tenantId_personId: { tenantId, personId } },
      include: { tenant: { select: { name: true, suspendedAt: true } } },
    });
    return row
      ? {
          tenantId: row.tenantId,
          tenantName: row.tenant.name,
          role: row.role,
          tenantSuspended: row.tenant.suspendedAt !== null,
        }
      : null;
  }

  async members(tenantId: string): Promise<MemberView[]> {
    const rows = await this.prisma.membership.findMany({
      where: { tenantId },
      include: { person: { select: { email: true, name: true } } },
      orderBy: [{ createdAt: 'asc' }, { personId: 'asc' }],
    });
    return rows.map((row) => ({
      personId: row.personId,
      email: row.person.email,
      name: row.person.name,
      role: row.role,
      createdAt: row.createdAt,
    }));
  }

  /**
   * Removes the membership unless it is the tenant's last owner's (`keepsOwner` decides, given how
   * many owners would be left), under a lock on the tenant's row so two removals cannot race.
   * Returns the removed membership, or null if there was none.
   */
  removeMember(
    tenantId: string,
    personId: string,
    check: (removed: Membership, ownersLeft: number) => void | Promise<void>,
    who: AuditActor,
  ): Promise<Membership | null> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM tenants WHERE id = ${tenantId}::uuid FOR UPDATE`;
      const found = await tx.membership.findUnique({ where: { tenantId_personId: { tenantId, personId } } });
      if (!found) return null;
      const owners = await tx.membership.count({ where: { tenantId, role: 'owner' } });
      await check(found, found.role === 'owner' ? owners - 1 : owners);
      await tx.membership.delete({ where: { tenantId_personId: { tenantId, personId } } });
      await AuditEntryRepository.write(tx, who, {
        action: 'membership.remove',
        targetId: tenantId,
        before: { personId, role: found.role },
        after: null,
      });
      return found;
    }, PEOPLE_TRANSACTION);
  }

  /** Changes the person's email; false if another person has it. */
  async setEmail(personId: string, email: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const holder = await tx.person.findUnique({ where: { email }, select: { id: true } });
      if (holder && holder.id !== personId) return false;
      await tx.person.update({ where: { id: personId }, data: { email } });
      return true;
    }, PEOPLE_TRANSACTION);
  }

  async setPassword(personId: string, passwordHash: string): Promise<void> {
    await this.prisma.person.update({ where: { id: personId }, data: { passwordHash } });
  }

  /**
   * Grants or withdraws a platform role (null: none), in the audit log as `person.platform-role`.
   * Returns the person, or null if no person has this email.
   */
  setPlatformRole(email: string, platformRole: string | null, who: AuditActor): Promise<Person | null> {
    return this.prisma.$transaction(async (tx) => {
      const found = await tx.person.findUnique({ where: { email } });
      if (!found) return null;
      const updated = await tx.person.update({ where: { id: found.id }, data: { platformRole } });
      await AuditEntryRepository.write(tx, who, {
        action: 'person.platform-role',
        targetId: found.id,
        before: { email, platformRole: found.platformRole },
        after: { email, platformRole },
      });
      return updated;
    }, PEOPLE_TRANSACTION);
  }

  /** The people holding a platform role, by email. */
  platformPeople(): Promise<Pick<Person, 'id' | 'email' | 'name' | 'platformRole'>[]> {
    return this.prisma.person.findMany({
      where: { platformRole: { not: null } },
      select: { id: true, email: true, name: true, platformRole: true },
      orderBy: { email: 'asc' },
    });
  }

  // Sessions

  createSession(session: { personId: string; tokenHash: Uint8Array<ArrayBuffer>; csrfToken: string; expiresAt: Date }) {
    return this.prisma.session.create({ data: session });
  }

  /** The unexpired session with this token hash, with its person, or null. */
  findSession(tokenHash: Uint8Array<ArrayBuffer>, now = new Date()): Promise<SessionWithPerson | null> {
    return this.prisma.session.findFirst({
      where: { tokenHash, expiresAt: { gt: now } },
      include: { person: { select: { id: true, email: true, name: true, platformRole: true } } },
    });
  }

  async deleteSession(id: string): Promise<void> {
    await this.prisma.session.deleteMany({ where: { id } });
  }

  /** Signs the person out everywhere (but `keep`, if named); returns how many sessions ended. */
  async deleteSessionsOf(personId: string, keep?: string): Promise<number> {
    return (await this.prisma.session.deleteMany({ where: { personId, ...(keep ? { id: { not: keep } } : {}) } }))
      .count;
  }

  // Invitations

  async createInvitation(
    invitation: {
      tenantId: string;
      email: string;
      role: string;
      tokenHash: Uint8Array<ArrayBuffer>;
      invitedBy: string;
      expiresAt: Date;
    },
    who: AuditActor,
  ): Promise<Invitation> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.invitation.create({ data: invitation });
      await AuditEntryRepository.write(tx, who, {
        action: 'invitation.create',
        targetId: invitation.tenantId,
        before: null,
        after: { invitationId: row.id, email: row.email, role: row.role },
      });
      return row;
    }, PEOPLE_TRANSACTION);
  }

  /**
   * Gives a pending invitation (unaccepted, unexpired, not yet mailed) the hash of the token the
   * mail job is about to send, replacing the last one: the invitation with its tenant's name, or
   * null when there is nothing to mail (accepted, expired, withdrawn, sent or failed for good).
   */
  async invitationToMail(
    id: string,
    tokenHash: Uint8Array<ArrayBuffer>,
    now = new Date(),
  ): Promise<(Invitation & { tenantName: string }) | null> {
    const { count } = await this.prisma.invitation.updateMany({
      where: { id, acceptedAt: null, expiresAt: { gt: now }, mailStatus: { in: ['queued', 'retrying'] } },
      data: { tokenHash },
    });
    if (count === 0) return null;
    const row = await this.prisma.invitation.findUnique({
      where: { id },
      include: { tenant: { select: { name: true } } },
    });
    if (!row) return null;
    const { tenant, ...invitation } = row;
    return { ...invitation, tenantName: tenant.name };
  }

  /** What became of an invitation's email: `sent`, or `retrying`/`failed` with the server's refusal. */
  async recordInvitationMail(id: string, outcome: { status: 'sent' | 'retrying' | 'failed'; error: string | null }) {
    await this.prisma.invitation.updateMany({
      where: { id },
      data: { mailStatus: outcome.status, mailError: outcome.error },
    });
  }

  /** Pending (unaccepted, unexpired) invitations of the tenant, oldest first. */
  pendingInvitations(tenantId: string, now = new Date()): Promise<Invitation[]> {
    return this.prisma.invitation.findMany({
      where: { tenantId, acceptedAt: null, expiresAt: { gt: now } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async deleteInvitation(tenantId: string, id: string): Promise<boolean> {
    return (await this.prisma.invitation.deleteMany({ where: { id, tenantId, acceptedAt: null } })).count > 0;
  }

  /**
   * Accepts the invitation with this token hash, once. `person` decides, outside any transaction
   * (it hashes or verifies a password: slow on purpose), whether the invitation's email is an
   * existing person or a new one to create; then, under the invitation's row lock, the membership
   * is written with the invitation's role (replacing an existing one's). Null if the token is
   * unknown, used or expired.
   */
  async acceptInvitation(
    tokenHash: Uint8Array<ArrayBuffer>,
    person: (
      invitation: Invitation,
    ) => Promise<{ existing: Person } | { create: { name: string; passwordHash: string } }>,
    now = new Date(),
  ): Promise<{ invitation: Invitation; person: Person } | null> {
    const pending = await this.prisma.invitation.findFirst({
      where: { tokenHash, acceptedAt: null, expiresAt: { gt: now } },
    });
    if (!pending) return null;
    const decided = await person(pending);
    return this.prisma.$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM invitations
        WHERE id = ${pending.id}::uuid AND accepted_at IS NULL AND expires_at > ${now}
        FOR UPDATE`;
      if (!locked) return null;
      const invitation = await tx.invitation.update({ where: { id: locked.id }, data: { acceptedAt: now } });
      const row =
        'existing' in decided
          ? decided.existing
          : await tx.person.create({ data: { email: invitation.email, ...decided.create } });
      await tx.membership.upsert({
        where: { tenantId_personId: { tenantId: invitation.tenantId, personId: row.id } },
        create: { tenantId: invitation.tenantId, personId: row.id, role: invitation.role },
        update: { role: invitation.role },
      });
      await AuditEntryRepository.write(
        tx,
        { actor: `person:${row.id}`, ip: null },
        {
          action: 'membership.create',
          targetId: invitation.tenantId,
          before: null,
          after: { personId: row.id, role: invitation.role, invitationId: invitation.id },
        },
      );
      return { invitation, person: row };
    }, PEOPLE_TRANSACTION);
  }

  /** A tenant's first owner, made by the platform operator (or a test) without an invitation. */
  async createWithMembership(
    person: { email: string; name: string; passwordHash: string },
    membership: { tenantId: string; role: string },
  ): Promise<Person> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.person.upsert({ where: { email: person.email }, create: person, update: {} });
      await tx.membership.upsert({
        where: { tenantId_personId: { tenantId: membership.tenantId, personId: row.id } },
        create: { ...membership, personId: row.id },
        update: { role: membership.role },
      });
      return row;
    }, PEOPLE_TRANSACTION);
  }

  /**
   * Deletes what can no longer sign anybody in: expired sessions, invitations expired unaccepted
   * (accepted ones are kept: they say who invited whom), resets expired or used.
   */
  async deleteExpired(now = new Date()): Promise<number> {
    const [sessions, invitations, resets] = await this.prisma.$transaction([
      this.prisma.session.deleteMany({ where: { expiresAt: { lte: now } } }),
      this.prisma.invitation.deleteMany({ where: { acceptedAt: null, expiresAt: { lte: now } } }),
      this.prisma.passwordReset.deleteMany({ where: { OR: [{ expiresAt: { lte: now } }, { usedAt: { not: null } }] } }),
    ]);
    return sessions.count + invitations.count + resets.count;
  }

  // Password resets

  /** A reset waiting for its email (the mail job mints the token); its id. */
  async createPasswordReset(reset: {
    personId: string;
    tokenHash: Uint8Array<ArrayBuffer>;
    expiresAt: Date;
  }): Promise<string> {
    return (await this.prisma.passwordReset.create({ data: reset, select: { id: true } })).id;
  }

  /**
   * Gives an unused, unexpired, not yet mailed reset the hash of the token the mail job is about
   * to send: the person's email to send it to, or null when there is nothing to mail.
   */
  async passwordResetToMail(
    id: string,
    tokenHash: Uint8Array<ArrayBuffer>,
    now = new Date(),
  ): Promise<{ id: string; email: string } | null> {
    const { count } = await this.prisma.passwordReset.updateMany({
      where: { id, usedAt: null, mailedAt: null, expiresAt: { gt: now } },
      data: { tokenHash },
    });
    if (count === 0) return null;
    const row = await this.prisma.passwordReset.findUnique({
      where: { id },
      include: { person: { select: { email: true } } },
    });
    return row && { id: row.id, email: row.person.email };
  }

  async passwordResetMailed(id: string, now = new Date()): Promise<void> {
    await this.prisma.passwordReset.updateMany({ where: { id }, data: { mailedAt: now } });
  }

  /**
   * Uses the reset with this token hash, once: sets the new password and ends every session of
   * the person (whoever knew the old password is signed out). The person's id, or null if the
   * token is unknown, used or expired.
   */
  usePasswordReset(tokenHash: Uint8Array<ArrayBuffer>, passwordHash: string, now = new Date()): Promise<string | null> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.passwordReset.updateMany({
        where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      if (count === 0) return null;
      const reset = await tx.passwordReset.findUniqueOrThrow({ where: { tokenHash } });
      await tx.person.update({ where: { id: reset.personId }, data: { passwordHash } });
      await tx.session.deleteMany({ where: { personId: reset.personId } });
      return reset.personId;
    }, PEOPLE_TRANSACTION);
  }
}
