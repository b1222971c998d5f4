import { Inject, Injectable } from '@nestjs/common';
import { parse as parseCookies, serialize } from 'cookie';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AppConfig } from '@sitemaps/config';
import { PersonRepository, type MembershipOfPerson } from '@sitemaps/data';
import {
  checkPassword,
  DomainError,
  hashToken,
  newToken,
  sameToken,
  normaliseEmail,
  parsePlatformRole,
  parseRole,
  type PlatformRole,
  PASSWORD_RESET_TTL_MS,
  scopesOfRole,
  SESSION_TTL_MS,
  type Role,
} from '@sitemaps/domain';
import { CONFIG } from '@sitemaps/core';
import type { Principal } from '../auth/principal';
import { uuidKey } from '../common/pagination';

import type { MailProducer } from '@sitemaps/jobs';
import { MAIL_PRODUCER, PASSWORD_HASHER, SIGN_IN_LIMITER } from './accounts.tokens';
import type { PasswordHasher } from './password.hasher';

export const SESSION_COOKIE = 'sitemaps_session';
export const CSRF_HEADER = 'x-csrf-token';
export const TENANT_HEADER = 'x-tenant-id';

export interface Account {
  person: { id: string; email: string; name: string; platformRole: PlatformRole | null };
  memberships: { tenantId: string; tenantName: string; role: Role; tenantSuspended: boolean }[];
  /** Sent back in X-CSRF-Token with every write this session makes. */
  csrfToken: string;
}

export interface NewSession {
  token: string;
  expiresAt: Date;
  account: Account;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Signing in and out, sessions as a principal, password resets. */
@Injectable()
export class AccountsService {
  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly people: PersonRepository,
    @Inject(PASSWORD_HASHER) private readonly passwords: PasswordHasher,
    @Inject(MAIL_PRODUCER) private readonly mail: MailProducer,
    @Inject(SIGN_IN_LIMITER) private readonly failures: RateLimiterAbstract,
  ) {}

  /**
   * A session for the person with this email and password. Failures are counted per address and
   * email; past SIGN_IN_FAILURE_POINTS the pair gets 429 whatever the password, until the window ends.
   */
  async signIn(email: string, password: string, ip: string): Promise<NewSession> {
    const address = normaliseEmail(email);
    const key = `${ip}|${address}`;
    const spent = await this.failures.get(key);
    if (spent && spent.consumedPoints >= this.failures.points) throw tooManySignIns(spent, this.failures);
    const person = await this.people.findByEmail(address);
    if (!(await this.passwords.verify(person?.passwordHash, password)) || !person) {
      await this.failures.penalty(key).catch(() => undefined);
      throw new DomainError('unauthenticated', 'SIGN_IN_FAILED', 'wrong email or password');
    }
    await this.failures.delete(key).catch(() => undefined);
    return this.startSession(person.id);
  }

  async startSession(personId: string): Promise<NewSession> {
    const token = newToken();
    const csrfToken = newToken();
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    await this.people.createSession({ personId, tokenHash: hashToken(token), csrfToken, expiresAt });
    return { token, expiresAt, account: await this.account(personId, csrfToken) };
  }

  async account(personId: string, csrfToken: string): Promise<Account> {
    const person = await this.people.findById(personId);
    if (!person) throw new DomainError('unauthenticated', 'UNAUTHENTICATED', 'this account no longer exists');
    const memberships = await this.people.membershipsOf(personId);
    return {
      person: {
        id: person.id,
        email: person.email,
        name: person.name,
        platformRole: parsePlatformRole(person.platformRole),
      },
      memberships: memberships.map((m) => ({ ...m, role: parseRole(m.role) })),
      csrfToken,
    };
  }

  async signOut(sessionId: string): Promise<void> {
    await this.people.deleteSession(sessionId);
  }

  async signOutEverywhere(personId: string): Promise<number> {
    return this.people.deleteSessionsOf(personId);
  }

  /** Every session of the person but this one. */
  async signOutOthers(personId: string, sessionId: string): Promise<number> {
    return this.people.deleteSessionsOf(personId, sessionId);
  }

  /**
   * Who a request carrying a session cookie is: the person, acting in the tenant named by
   * X-Tenant-Id with their role's scopes, or in none. A write must carry the session's CSRF token
   * (X-CSRF-Token): another origin can make the browser send the cookie, but cannot read the token.
   */
  async principalOfSession(
    token: string,
    request: { method: string; headers: Record<string, string | string[] | undefined> },
  ): Promise<Principal> {
    const session = await this.people.findSession(hashToken(token));
    if (!session) throw new DomainError('unauthenticated', 'SESSION_EXPIRED', 'your session has ended: sign in again');
    if (!READ_METHODS.has(request.method.toUpperCase())) {
      const sent = request.headers[CSRF_HEADER];
      if (typeof sent !== 'string' || !sameToken(sent, session.csrfToken))
        throw new DomainError(
          'forbidden',
          'CSRF_TOKEN_INVALID',
          'a write with a session cookie needs the session’s X-CSRF-Token header',
        );
    }
    const person = {
      personId: session.personId,
      sessionId: session.id,
      csrfToken: session.csrfToken,
      platformRole: parsePlatformRole(session.person.platformRole),
    };
    const tenantId = request.headers[TENANT_HEADER];
    if (tenantId === undefined) return { kind: 'person', person };
    const membership: MembershipOfPerson | null =
      typeof tenantId === 'string' && uuidKey.safeParse(tenantId).success
        ? await this.people.membership(session.personId, tenantId)
        : null;
    if (!membership) throw new DomainError('forbidden', 'NOT_A_MEMBER', 'you are not a member of this tenant');
    if (membership.tenantSuspended)
      throw new DomainError(
        'unauthenticated',
        'TENANT_SUSPENDED',
        'this account is suspended by the platform operator',
      );
    const role = parseRole(membership.role);
    return { kind: 'tenant', tenantId: membership.tenantId, scopes: scopesOfRole(role), person: { ...person, role } };
  }

  /**
   * A new password for the signed-in person, after the current one again (counted like failed
   * sign-ins): every other session ends, this one stays. Returns how many sessions ended.
   */
  async changePassword(
    actor: { personId: string; sessionId: string },
    change: { currentPassword: string; newPassword: string },
    ip: string,
  ): Promise<number> {
    await this.reauthenticate(actor.personId, change.currentPassword, ip);
    checkPassword(change.newPassword, 'newPassword');
    await this.people.setPassword(actor.personId, await this.passwords.hash(change.newPassword));
    return this.people.deleteSessionsOf(actor.personId, actor.sessionId);
  }

  /** A new email for the signed-in person, after their current password; one person per email. */
  async changeEmail(
    actor: { personId: string; csrfToken: string },
    change: { currentPassword: string; email: string },
    ip: string,
  ): Promise<Account> {
    await this.reauthenticate(actor.personId, change.currentPassword, ip);
    const email = normaliseEmail(change.email);
    if (!(await this.people.setEmail(actor.personId, email)))
      throw new DomainError('conflict', 'EMAIL_TAKEN', 'another account has this email', [
        { field: 'email', message: 'another account has this email' },
      ]);
    return this.account(actor.personId, actor.csrfToken);
  }

  /** The current password again, with the same failure count as signing in (a stolen session cannot guess it). */
  private async reauthenticate(personId: string, password: string, ip: string): Promise<void> {
    const person = await this.people.findById(personId);
    if (!person) throw new DomainError('unauthenticated', 'UNAUTHENTICATED', 'this account no longer exists');
    const key = `${ip}|${person.email}`;
    const spent = await this.failures.get(key);
    if (spent && spent.consumedPoints >= this.failures.points) throw tooManySignIns(spent, this.failures);
    if (!(await this.passwords.verify(person.passwordHash, password))) {
      await this.failures.penalty(key).catch(() => undefined);
      throw new DomainError('invalid', 'PASSWORD_WRONG', 'the current password is wrong', [
        { field: 'currentPassword', message: 'not your current password' },
      ]);
    }
  }

  /**
   * Whether this Cookie header holds the session of a person with the operator role: the queue
   * board's pages (reads, and actions it refuses from other sites itself) take it as the admin key.
   */
  async isOperatorSession(cookieHeader: string | undefined): Promise<boolean> {
    const token = cookieHeader ? parseCookies(cookieHeader)[SESSION_COOKIE] : undefined;
    if (!token) return false;
    const session = await this.people.findSession(hashToken(token));
    return session?.person.platformRole === 'operator';
  }

  /**
   * Queues a reset link for the email if it belongs to a person (the worker mints the token and
   * mails it); the answer is the same either way, so the route does not tell who has an account.
   */
  async requestPasswordReset(email: string): Promise<void> {
    assertMailConfigured(this.config);
    const person = await this.people.findByEmail(normaliseEmail(email));
    if (!person) return;
    // The stored hash is of a token nobody ever sees: the link works once the worker replaces it.
    const resetId = await this.people.createPasswordReset({
      personId: person.id,
      tokenHash: hashToken(newToken()),
      expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL_MS),
    });
    await this.mail.passwordReset(resetId);
  }

  /** Sets the new password and signs the person out everywhere. */
  async resetPassword(token: string, password: string): Promise<void> {
    checkPassword(password);
    const passwordHash = await this.passwords.hash(password);
    if (!(await this.people.usePasswordReset(hashToken(token), passwordHash)))
      throw new DomainError('invalid', 'RESET_TOKEN_INVALID', 'this reset link is unknown, used or expired');
  }
}

/** The session cookie's attributes: HttpOnly, SameSite=Strict, Secure behind https. */
export function sessionCookieOptions(config: AppConfig) {
  return { httpOnly: true, sameSite: 'strict' as const, secure: config.accounts.secureCookies, path: '/' };
}

/** A Set-Cookie value that clears the session cookie. */
export function clearedSessionCookie(config: AppConfig): string {
  return serialize(SESSION_COOKIE, '', { ...sessionCookieOptions(config), maxAge: 0 });
}

/** Refuses up front when no SMTP server is configured, before anything is written. */
export function assertMailConfigured(config: AppConfig): void {
  if (!config.accounts.smtpUrl)
    throw new DomainError('unavailable', 'MAIL_NOT_CONFIGURED', 'this platform sends no email: SMTP_URL is not set');
}

/** A sign-in refused for too many failures: the route sends Retry-After with it. */
export class SignInsLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super('rate_limited', 'RATE_LIMITED', message);
  }
}

function tooManySignIns(res: RateLimiterRes, limiter: RateLimiterAbstract): DomainError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new SignInsLimitedError(
    seconds,
    `too many failed sign-ins for this email from this address (${limiter.points} per ${limiter.duration} s); retry in ${seconds} s`,
  );
}
