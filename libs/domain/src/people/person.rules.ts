// People, their memberships and roles. A role is a set of the scopes API keys already carry, so
// one guard checks both: a person acting in a tenant is allowed what a key with those scopes is.
import { DomainError, invalid } from '../domain.errors';

export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
/** What an API key may do; a role is a set of them. */
export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];
export type RoleScope = Scope;

/** owner and admin: everything a tenant may do; editor: write URLs, builds; viewer: read. */
const ROLE_SCOPES: Record<Role, RoleScope[]> = {
  owner: ['admin', 'write', 'read'],
  admin: ['admin', 'write', 'read'],
  editor: ['write', 'read'],
  viewer: ['read'],
};

export function scopesOfRole(role: Role): RoleScope[] {
  return [...ROLE_SCOPES[role]];
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Stored roles are written by this code only: an unknown one is a bug, not input. */
export function parseRole(value: string): Role {
  if (!isRole(value)) throw new Error(`unknown role ${JSON.stringify(value)}`);
  return value;
}

/**
 * A person's role on the platform itself, beside their tenants: `operator` sees every tenant,
 * changes quotas, suspends and reads the audit log (the ADMIN_API_KEY's routes) from the console.
 */
export const PLATFORM_ROLES = ['operator'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

/** A stored platform role (null: none); an unknown one is a bug, not input. */
export function parsePlatformRole(value: string | null): PlatformRole | null {
  if (value === null) return null;
  if (!(PLATFORM_ROLES as readonly string[]).includes(value))
    throw new Error(`unknown platform role ${JSON.stringify(value)}`);
  return value as PlatformRole;
}

/** Email addresses compare trimmed and lowercase (the domain is case-insensitive; mailboxes are in practice). */
export function normaliseEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (trimmed.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed))
    throw invalid('EMAIL_INVALID', 'not an email address', [{ field: 'email', message: 'not an email address' }]);
  return trimmed;
}

export const PASSWORD_MIN_LENGTH = 10;
/** argon2 hashes any length, but a megabyte of password is an attack, not a password. */
export const PASSWORD_MAX_LENGTH = 256;

/** Length is what makes a password hard to guess (NIST SP 800-63B); no composition rules. */
export function checkPassword(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH)
    throw invalid('PASSWORD_TOO_WEAK', `a password has ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`, [
      { field, message: `use ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters` },
    ]);
}

/**
 * Who acts on memberships: a person with their role, an API key with the admin scope (as an
 * admin), or the platform operator (a tenant's first owner is invited by the operator).
 */
export type MemberManager = { role: Role } | { key: true } | { platform: true };

/**
 * Owners and admins invite and remove; only an owner grants or removes the owner role, so an
 * admin cannot take a tenant over. A key with the admin scope counts as an admin.
 */
export function assertMayManage(manager: MemberManager, targetRole: Role): void {
  if ('platform' in manager) return;
  const role: Role = 'key' in manager ? 'admin' : manager.role;
  if (role !== 'owner' && role !== 'admin')
    throw new DomainError('forbidden', 'INSUFFICIENT_ROLE', 'only owners and admins manage members');
  if (targetRole === 'owner' && role !== 'owner')
    throw new DomainError('forbidden', 'INSUFFICIENT_ROLE', 'only an owner may grant or remove the owner role');
}

/** A tenant keeps at least one owner: the last one cannot be removed. */
export function assertKeepsAnOwner(ownersLeft: number): void {
  if (ownersLeft < 1)
    throw new DomainError('conflict', 'LAST_OWNER', 'a tenant keeps at least one owner: make another owner first');
}

export const SESSION_TTL_MS = 14 * 24 * 3_600_000;
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
export const PASSWORD_RESET_TTL_MS = 3_600_000;
