import { Inject, Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DomainError } from '@sitemaps/domain';
import { RATE_LIMITER } from '../api.tokens';
import { ApiKeysService } from './api-keys.service';
import type { Principal, Scope } from './principal';
import { httpOf } from './transport-context';

export type { AuthedRequest } from './transport-context';

const ACCESS = 'access';
type Access = { public: true } | { platform: true } | { scope: Scope };

/** Access to a route or GraphQL operation: public, platform key only, or a tenant key holding the scope (default: read). */
export const Public = () => SetMetadata(ACCESS, { public: true } satisfies Access);
export const PlatformOnly = () => SetMetadata(ACCESS, { platform: true } satisfies Access);
export const RequireScope = (scope: Scope) => SetMetadata(ACCESS, { scope } satisfies Access);

/** admin implies write, write implies read. */
const GRANTS: Record<Scope, Scope[]> = { admin: ['admin', 'write', 'read'], write: ['write', 'read'], read: ['read'] };

@Injectable()
export class ApiKeyGuard implements CanActivate {
  /** GraphQL runs guards once per root field of one request: authenticate and count it once. */
  private readonly principals = new WeakMap<FastifyRequest, Promise<Principal>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiterAbstract,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS, [context.getHandler(), context.getClass()]) ?? { scope: 'read' };
    if ('public' in access) return true;
    const { request, reply } = httpOf(context);
    let pending = this.principals.get(request);
    if (!pending) this.principals.set(request, (pending = this.authenticate(request, reply)));
    const principal = await pending;
    request.principal = principal;
    if ('platform' in access) {
      if (principal.kind !== 'platform') throw new DomainError('forbidden', 'FORBIDDEN', 'only the platform admin key may do this');
      return true;
    }
    if (principal.kind !== 'tenant') throw new DomainError('forbidden', 'FORBIDDEN', 'use a tenant API key for tenant resources');
    if (!principal.scopes.some((scope) => GRANTS[scope].includes(access.scope))) {
      throw new DomainError('forbidden', 'INSUFFICIENT_SCOPE', `this key lacks the "${access.scope}" scope`);
    }
    return true;
  }

  private async authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    const header = request.headers.authorization;
    const principal = await this.keys.authenticate(header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined);
    // Per key, so one tenant's noisy integration cannot starve its other keys or other tenants.
    const limitKey = principal.kind === 'tenant' ? principal.keyId : 'platform';
    try {
      await this.limiter.consume(limitKey);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      void reply.header('retry-after', String(seconds));
      throw new DomainError('rate_limited', 'RATE_LIMITED', `rate limit of ${this.limiter.points} requests per ${this.limiter.duration} s exceeded for this key; retry in ${seconds} s`);
    }
    return principal;
  }
}
