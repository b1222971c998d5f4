// Persisted rows with overrides, for integration tests. No shared seed data.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

export interface SiteRow {
  id: string;
  tenantId: string;
  hostname: string;
  scheme: 'http' | 'https';
  defaultChangefreq: string | null;
  defaultPriority: number | null;
  /** Verified by default: what tests start from is a site the public server serves. */
  verificationStatus: 'pending' | 'verified' | 'taken';
}

export async function insertTenant(
  db: Pool,
  overrides: { name?: string; maxSites?: number; maxUrls?: number } = {},
): Promise<{ id: string }> {
  const id = randomUUID();
  await db.query('INSERT INTO tenants (id, name, max_sites, max_urls) VALUES ($1, $2, $3, $4)', [
    id,
    overrides.name ?? 'Tenant',
    overrides.maxSites ?? null,
    overrides.maxUrls ?? null,
  ]);
  return { id };
}

export async function insertSite(db: Pool, overrides: Partial<SiteRow> = {}): Promise<SiteRow> {
  const tenantId = overrides.tenantId ?? (await insertTenant(db)).id;
  const site: SiteRow = {
    id: randomUUID(),
    tenantId,
    hostname: `site-${randomBytes(4).toString('hex')}.example.com`,
    scheme: 'https',
    defaultChangefreq: null,
    defaultPriority: null,
    verificationStatus: 'verified',
    ...overrides,
  };
  await db.query(
    `INSERT INTO sites (id, tenant_id, hostname, scheme, default_changefreq, default_priority, indexnow_key, verification_status, verified_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text, CASE WHEN $8::text = 'verified' THEN now() END, now())`,
    [
      site.id,
      site.tenantId,
      site.hostname,
      site.scheme,
      site.defaultChangefreq,
      site.defaultPriority,
      randomBytes(16).toString('hex'),
      site.verificationStatus,
    ],
  );
  return site;
}
