import { applyDecorators, Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import { DomainError } from '@sitemaps/domain';
import { isOperator, type Scope } from './principal';
import { RequestAuthenticator } from './request.authenticator';
import { httpOf } from './transport-context';
import { PUBLIC_EXTENSION } from '../openapi/openapi.document';

export type { AuthedRequest } from './transport-context';

const ACCESS = 'access';
type Access = { public: true } | { platform: true } | { platformKey: true } | { person: true } | { scope: Scope };

/** Access to a route or GraphQL operation: public, platform (the admin key or an operator), or a tenant key holding the scope (default: read). */
/** Public routes are documented without the bearer requirement. */
export const Public = () =>
  applyDecorators(SetMetadata(ACCESS, { public: true } satisfies Access), ApiExtension(PUBLIC_EXTENSION, true));
export const PlatformOnly = () => SetMetadata(ACCESS, { platform: true } satisfies Access);
/** The ADMIN_API_KEY itself, not an operator: who may be an operator is decided by whoever holds the key. */
export const PlatformKeyOnly = () => SetMetadata(ACCESS, { platformKey: true } satisfies Access);
export const RequireScope = (scope: Scope) => SetMetadata(ACCESS, { scope } satisfies Access);
/** A person signed in to the console (session cookie), acting in a tenant or not: their own account. */
export const PersonOnly = () => SetMetadata(ACCESS, { person: true } satisfies Access);

/** admin implies write, write implies read. */
const GRANTS: Record<Scope, Scope[]> = { admin: ['admin', 'write', 'read'], write: ['write', 'read'], read: ['read'] };

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: RequestAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS, [
      context.getHandler(),
      context.getClass(),
    ]) ?? { scope: 'read' };
    if ('public' in access) return true;
    const { request, reply } = httpOf(context);
    // GraphQL runs guards once per root field: the authenticator decides once per request.
    const principal = await this.authenticator.principalOf(request, reply);
    request.principal = principal;
    if ('platformKey' in access) {
      if (principal.kind !== 'platform')
        throw new DomainError('forbidden', 'FORBIDDEN', 'only the platform admin key may do this');
      return true;
    }
    if ('platform' in access) {
      // A person with the operator role counts, when they act in no tenant (no X-Tenant-Id).
      if (!isOperator(principal))
        throw new DomainError('forbidden', 'FORBIDDEN', 'only the platform admin key or an operator may do this');
      return true;
    }
    if ('person' in access) {
      if (principal.kind === 'person' || (principal.kind === 'tenant' && principal.person)) return true;
      throw new DomainError('forbidden', 'FORBIDDEN', 'sign in as a person for this; API keys have no account');
    }
    if (principal.kind === 'person')
      throw new DomainError('forbidden', 'TENANT_REQUIRED', 'choose a tenant: send X-Tenant-Id with one of yours');
    if (principal.kind !== 'tenant')
      throw new DomainError('forbidden', 'FORBIDDEN', 'use a tenant API key for tenant resources');
    if (!principal.scopes.some((scope) => GRANTS[scope].includes(access.scope))) {
      throw new DomainError(
        'forbidden',
        'INSUFFICIENT_SCOPE',
        principal.person
          ? `the ${principal.person.role} role lacks the "${access.scope}" scope`
          : `this key lacks the "${access.scope}" scope`,
      );
    }
    return true;
  }
}
