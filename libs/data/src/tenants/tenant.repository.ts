// The tenants aggregate: a tenant and its quotas (enforced by QuotaService).
import type { PrismaClient, Tenant } from '../generated/prisma/client';

export type { Tenant } from '../generated/prisma/client';

export interface NewTenant {
  name: string;
  /** null: unlimited. */
  maxSites: number | null;
  maxUrls: number | null;
}

export class TenantRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(tenant: NewTenant): Promise<Tenant> {
    return this.prisma.tenant.create({ data: tenant });
  }

  findById(tenantId: string): Promise<Tenant | null> {
    return this.prisma.tenant.findUnique({ where: { id: tenantId } });
  }
}
