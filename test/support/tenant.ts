// The setup most e2e files start with: a tenant made with the platform's admin key, a client
// holding its key, and often one site. A refused step throws with the API's answer, so a broken
// setup fails where it happens, not as an undefined id three calls later.
import { apiClient } from './api-client';
import { ADMIN_KEY } from './platform';

export type ApiClient = ReturnType<typeof apiClient>;

export interface TestTenant {
  id: string;
  apiKey: string;
  /** A client holding the tenant's key. */
  api: ApiClient;
}

/** A new tenant, through the admin API at `apiUrl`. */
export async function createTenant(apiUrl: string, name: string): Promise<TestTenant> {
  const created = await apiClient(apiUrl, ADMIN_KEY).post('/v1/tenants', { name });
  if (created.status !== 201) throw new Error(`tenant ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  const { id, apiKey } = created.body as { id: string; apiKey: string };
  return { id, apiKey, api: apiClient(apiUrl, apiKey) };
}

/** A new site of `tenant`; `site` is the body of POST /v1/sites. */
export async function createSite(
  tenant: ApiClient,
  site: { hostname: string } & Record<string, unknown>,
): Promise<string> {
  const created = await tenant.post('/v1/sites', site);
  if (created.status !== 201)
    throw new Error(`site ${site.hostname}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id as string;
}

/** A new tenant with one site. */
export async function createTenantWithSite(
  apiUrl: string,
  name: string,
  site: { hostname: string } & Record<string, unknown>,
): Promise<TestTenant & { siteId: string }> {
  const tenant = await createTenant(apiUrl, name);
  return { ...tenant, siteId: await createSite(tenant.api, site) };
}
