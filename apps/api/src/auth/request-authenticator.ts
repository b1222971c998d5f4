import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DomainError } from '@sitemaps/domain';
import { AUTH_FAILURE_LIMITER, RATE_LIMITER } from '../api.tokens';
import { ApiKeysService } from './api-keys.service';
import type { Principal } from './principal';

/** `Authorization: Bearer <key>`; the scheme is case-insensitive (RFC 9110 §11.1). */
export function bearerKey(header: string | undefined): string | undefined {
  return /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1];
}

/**
 * Who makes a request, decided once per request: by a fastify hook before any body is read (see
 * api.app.ts) or by the guard. Each authenticated request spends one of its key's points; each
 * invalid key spends one of its address's, so guessing keys costs the guesser, not the database.
 */
@Injectable()
export class RequestAuthenticator {
  private readonly principals = new WeakMap<FastifyRequest, Promise<Principal>>();

  constructor(
    private readonly keys: ApiKeysService,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiterAbstract,
    @Inject(AUTH_FAILURE_LIMITER) private readonly failures: RateLimiterAbstract,
  ) {}

  principalOf(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    let pending = this.principals.get(request);
    if (!pending) this.principals.set(request, (pending = this.authenticate(request, reply)));
    return pending;
  }

  private async authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    const key = bearerKey(request.headers.authorization);
    if (key !== undefined) {
      const spent = await this.failures.get(request.ip);
      if (spent && spent.consumedPoints >= this.failures.points) {
        throw rateLimited(reply, spent, `too many invalid API keys from this address (${this.failures.points} per ${this.failures.duration} s)`);
      }
    }
    let principal: Principal;
    try {
      principal = await this.keys.authenticate(key);
    } catch (error) {
      if (key !== undefined && error instanceof DomainError && error.kind === 'unauthenticated') {
        await this.failures.penalty(request.ip).catch(() => undefined);
      }
      throw error;
    }
    // Per key, so one tenant's noisy integration cannot starve its other keys or other tenants.
    try {
      await this.limiter.consume(principal.kind === 'tenant' ? principal.keyId : 'platform');
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw rateLimited(reply, error, `rate limit of ${this.limiter.points} requests per ${this.limiter.duration} s exceeded for this key`);
    }
    return principal;
  }
}

function rateLimited(reply: FastifyReply, res: RateLimiterRes, why: string): DomainError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  void reply.header('retry-after', String(seconds));
  return new DomainError('rate_limited', 'RATE_LIMITED', `${why}; retry in ${seconds} s`);
}
