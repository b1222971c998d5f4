import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '@sitemaps/domain';
import { ApiKeysService } from './api-keys.service';
import type { Principal, Scope } from './principal';

const ACCESS = 'access';
type Access = { public: true } | { platform: true } | { scope: Scope };

/** Route access: public, platform key only, or a tenant key holding the scope (admin implies all). */
export const Public = () => SetMetadata(ACCESS, { public: true } satisfies Access);
export const PlatformOnly = () => SetMetadata(ACCESS, { platform: true } satisfies Access);
export const RequireScope = (scope: Scope) => SetMetadata(ACCESS, { scope } satisfies Access);

export type AuthedRequest = FastifyRequest & { principal: Principal };

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS, [context.getHandler(), context.getClass()]) ?? { scope: 'read' };
    if ('public' in access) return true;
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const header = request.headers.authorization;
    const key = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const principal = await this.keys.authenticate(key);
    request.principal = principal;
    if ('platform' in access) {
      if (principal.kind !== 'platform') throw new DomainError('forbidden', 'FORBIDDEN', 'only the platform admin key may do this');
      return true;
    }
    if (principal.kind !== 'tenant') throw new DomainError('forbidden', 'FORBIDDEN', 'use a tenant API key for tenant resources');
    const allowed = principal.scopes.includes('admin') || principal.scopes.includes(access.scope) || (access.scope === 'read' && principal.scopes.includes('write'));
    if (!allowed) throw new DomainError('forbidden', 'INSUFFICIENT_SCOPE', `this key lacks the "${access.scope}" scope`);
    return true;
  }
}
