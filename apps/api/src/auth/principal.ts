export type Scope = 'read' | 'write' | 'admin';
export const SCOPES: readonly Scope[] = ['read', 'write', 'admin'];

/** Who is calling: the platform (ADMIN_API_KEY) or a tenant's key with its scopes. */
export type Principal = { kind: 'platform' } | { kind: 'tenant'; tenantId: string; keyId: string; scopes: Scope[] };
