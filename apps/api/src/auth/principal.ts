import type { PlatformRole, Role } from '@sitemaps/domain';

export type Scope = 'read' | 'write' | 'admin';
export const SCOPES: readonly Scope[] = ['read', 'write', 'admin'];

/** A signed-in person (session cookie), and their role in the tenant they act in, if they chose one. */
export interface PersonActor {
  personId: string;
  sessionId: string;
  /** The session's CSRF token, handed back to the console by GET /v1/auth/session. */
  csrfToken: string;
  /** `operator`: may use the platform's routes as the ADMIN_API_KEY does, when acting in no tenant. */
  platformRole: PlatformRole | null;
}

/**
 * Who is calling: the platform (ADMIN_API_KEY); a tenant's key with its scopes; a person signed in
 * with a session acting in one of their tenants (X-Tenant-Id), with the scopes of their role; or a
 * signed-in person who chose no tenant (their own account routes only).
 */
export type Principal =
  | { kind: 'platform' }
  | { kind: 'tenant'; tenantId: string; keyId: string; scopes: Scope[]; person?: undefined }
  | { kind: 'tenant'; tenantId: string; keyId?: undefined; scopes: Scope[]; person: PersonActor & { role: Role } }
  | { kind: 'person'; person: PersonActor };

/** The platform key, or a person with the operator role acting in no tenant: the operator's routes. */
export function isOperator(principal: Principal): boolean {
  return principal.kind === 'platform' || (principal.kind === 'person' && principal.person.platformRole === 'operator');
}

/** How the audit log and the logs name the caller: `platform`, `key:<id>` or `person:<id>`. */
export function actorOf(principal: Principal): string {
  if (principal.kind === 'platform') return 'platform';
  if (principal.person) return `person:${principal.person.personId}`;
  return `key:${principal.keyId}`;
}
