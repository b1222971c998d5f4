import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseCookies } from 'cookie';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DomainError } from '@sitemaps/domain';
import { AUTH_FAILURE_LIMITER, RATE_LIMITER, TENANT_RATE_LIMITER } from '../api.tokens';
import { AccountsService, SESSION_COOKIE } from '../accounts/accounts.service';
import { ApiKeysService, keyPrefix, TENANT_SUSPENDED } from './api-keys.service';
import type { Principal } from './principal';

/** `Authorization: Bearer <key>`; the scheme is case-insensitive (RFC 9110 §11.1). */
export function bearerKey(header: string | undefined): string | undefined {
  return /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1];
}

/**
 * Who makes a request, decided once per request: by a fastify hook before any body is read (see
 * api.app.ts) or by the guard. A bearer key, else a person's session cookie (AccountsService
 * checks its CSRF token on writes and the person's tenant). Each authenticated request spends one
 * of its key's points; each invalid key spends one point of its address and prefix (request.ip:
 * the client behind a trusted proxy), so repeating a bad key costs its sender and nobody else.
 * A tenant's requests are also counted together, whatever key makes them: more keys buy no more.
 * Every answer to a request that presented a key says where it stands (RateLimit-Limit,
 * RateLimit-Remaining, RateLimit-Reset: the allowance that runs out first).
 */
@Injectable()
export class RequestAuthenticator {
  private readonly principals = new WeakMap<FastifyRequest, Promise<Principal>>();
  /** The tenant of each authenticated request, for its log line. */
  private readonly tenants = new WeakMap<FastifyRequest, string>();

  constructor(
    private readonly keys: ApiKeysService,
    private readonly accounts: AccountsService,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiterAbstract,
    @Inject(TENANT_RATE_LIMITER) private readonly tenantLimiter: RateLimiterAbstract,
    @Inject(AUTH_FAILURE_LIMITER) private readonly failures: RateLimiterAbstract,
  ) {}

  principalOf(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    let pending = this.principals.get(request);
    if (!pending) this.principals.set(request, (pending = this.authenticate(request, reply)));
    return pending;
  }

  /** The tenant a request was authenticated as, if it was, by a tenant's key. */
  tenantOf(request: FastifyRequest): string | undefined {
    return this.tenants.get(request);
  }

  private async authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    const key = bearerKey(request.headers.authorization);
    // A key wins over a session cookie: a program's request is the program's.
    const session = key === undefined ? sessionToken(request.headers.cookie) : undefined;
    if (session !== undefined)
      return this.limited(await this.accounts.principalOfSession(session, request), request, reply);
    let principal: Principal;
    try {
      // The key is judged before any failure count: a valid key is never refused for others' mistakes.
      principal = await this.keys.authenticate(key);
    } catch (error) {
      // A suspended tenant's key is a valid key: its address is not charged for guessing.
      if (
        key !== undefined &&
        error instanceof DomainError &&
        error.kind === 'unauthenticated' &&
        error.code !== TENANT_SUSPENDED
      )
        await this.chargeFailure(request, reply, key);
      throw error;
    }
    return this.limited(principal, request, reply);
  }

  private async limited(principal: Principal, request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    if (principal.kind === 'tenant') this.tenants.set(request, principal.tenantId);
    // Per key (a person's session counts as one), so one noisy integration cannot starve its
    // tenant's other keys; then per tenant.
    const spent: Spent[] = [];
    const consume = async (limiter: RateLimiterAbstract, key: string, whose: string) => {
      try {
        spent.push([limiter, await limiter.consume(key)]);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        setRateLimitHeaders(reply, [...spent, [limiter, error]]);
        throw rateLimited(
          reply,
          error,
          `rate limit of ${limiter.points} requests per ${limiter.duration} s exceeded for this ${whose}`,
        );
      }
    };
    await consume(this.limiter, limiterKeyOf(principal), 'key');
    if (principal.kind === 'tenant')
      await consume(this.tenantLimiter, principal.tenantId, 'tenant (all its keys together)');
    setRateLimitHeaders(reply, spent);
    return principal;
  }

  /**
   * Counts an invalid key against its address and the key's prefix: whoever repeats a wrong or
   * revoked key is slowed down (429 instead of 401 once they are spent), while other keys from
   * the same address, behind the same proxy or NAT, are judged on their own.
   */
  private async chargeFailure(request: FastifyRequest, reply: FastifyReply, key: string): Promise<void> {
    const spent = await this.failures.penalty(`${request.ip} ${keyPrefix(key)}`).catch(() => undefined);
    if (!spent) return;
    setRateLimitHeaders(reply, [[this.failures, spent]]);
    if (spent.consumedPoints > this.failures.points)
      throw rateLimited(
        reply,
        spent,
        `this key was refused ${this.failures.points} times from this address within ${this.failures.duration} s`,
      );
  }
}

type Spent = [RateLimiterAbstract, RateLimiterRes];

function limiterKeyOf(principal: Principal): string {
  if (principal.kind === 'platform') return 'platform';
  if (principal.person) return `session:${principal.person.sessionId}`;
  return principal.keyId;
}

/** The session cookie's token, if the request carries one. */
function sessionToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return parseCookies(header)[SESSION_COOKIE] || undefined;
}

/** The allowance with the fewest requests left (on a tie, the one that resets last) is the one to report. */
function setRateLimitHeaders(reply: FastifyReply, spent: Spent[]): void {
  const binding = spent.reduce((a, b) =>
    b[1].remainingPoints < a[1].remainingPoints ||
    (b[1].remainingPoints === a[1].remainingPoints && b[1].msBeforeNext > a[1].msBeforeNext)
      ? b
      : a,
  );
  const [limiter, res] = binding;
  void reply.header('ratelimit-limit', String(limiter.points));
  void reply.header('ratelimit-remaining', String(Math.max(0, res.remainingPoints)));
  void reply.header('ratelimit-reset', String(Math.max(0, Math.ceil(res.msBeforeNext / 1000))));
}

function rateLimited(reply: FastifyReply, res: RateLimiterRes, why: string): DomainError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  void reply.header('retry-after', String(seconds));
  return new DomainError('rate_limited', 'RATE_LIMITED', `${why}; retry in ${seconds} s`);
}
