// A tenant and site written straight into a bench's scratch database, for benches that drive the
// ingest library without the API.
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { IngestSite } from '@sitemaps/ingest';

export async function insertBenchSite(pool: Pool, hostname: string): Promise<IngestSite> {
  const id = randomUUID();
  const tenant = await pool.query<{ id: string }>(
    `INSERT INTO tenants (id, name) VALUES (gen_random_uuid(), 'bench') RETURNING id`,
  );
  await pool.query(
    'INSERT INTO sites (id, tenant_id, hostname, scheme, indexnow_key, updated_at) VALUES ($1, $2, $3, $4, gen_random_uuid()::text, now())',
    [id, tenant.rows[0]?.id, hostname, 'https'],
  );
  return { id, hostname, scheme: 'https', defaultChangefreq: null, defaultPriority: null };
}
