import type { Role } from '@sitemaps/domain';

export type Scope = 'read' | 'write' | 'admin';
export const SCOPES: readonly Scope[] = ['read', 'write', 'admin'];

/** A signed-in person (session cookie), and their role in the tenant they act in, if they chose one. */
export interface PersonActor {
  personId: string;
  sessionId: string;
  /** The session's CSRF token, handed back to the console by GET /v1/auth/session. */
  csrfToken: string;
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

/** How the audit log and the logs name the caller: `platform`, `key:<id>` or `person:<id>`. */
export function actorOf(principal: Principal): string {
  if (principal.kind === 'platform') return 'platform';
  if (principal.person) return `person:${principal.person.personId}`;
  return `key:${principal.keyId}`;
}
