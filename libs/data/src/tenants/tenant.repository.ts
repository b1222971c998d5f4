// The tenants aggregate: a tenant and its quotas (enforced by QuotaService), and what the platform
// operator does with it: list, read, change quotas, suspend, resume, delete. Every operator change
// writes its audit entry in the same transaction, so the log cannot miss an action that happened
// nor record one that did not.
import type { Prisma, PrismaClient, Tenant } from '../generated/prisma/client';
import { AuditEntryRepository, type AuditActor } from '../audit/audit-entry.repository';

export type { Tenant } from '../generated/prisma/client';

export interface NewTenant {
  name: string;
  /** null: unlimited. */
  maxSites: number | null;
  maxUrls: number | null;
}

export interface TenantRecord {
  id: string;
  name: string;
  maxSites: number | null;
  maxUrls: number | null;
  suspendedAt: Date | null;
  suspendedReason: string | null;
  createdAt: Date;
  siteCount: number;
}

export interface TenantChanges {
  name?: string;
  maxSites?: number | null;
  maxUrls?: number | null;
}

type Tx = Prisma.TransactionClient;

const SELECT = {
  id: true,
  name: true,
  maxSites: true,
  maxUrls: true,
  suspendedAt: true,
  suspendedReason: true,
  createdAt: true,
  _count: { select: { sites: true } },
} satisfies Prisma.TenantSelect;

type Row = Prisma.TenantGetPayload<{ select: typeof SELECT }>;

export class TenantRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(tenant: NewTenant): Promise<Tenant> {
    return this.prisma.tenant.create({ data: tenant });
  }

  findById(tenantId: string): Promise<Tenant | null> {
    return this.prisma.tenant.findUnique({ where: { id: tenantId } });
  }

  async get(id: string, db: Tx | PrismaClient = this.prisma): Promise<TenantRecord | null> {
    const row = await db.tenant.findUnique({ where: { id }, select: SELECT });
    return row && record(row);
  }

  /** Oldest first, keyset-paged on (created_at, id). */
  async list(page: { after?: [Date, string]; first: number; suspended?: boolean }): Promise<TenantRecord[]> {
    const after = page.after;
    const rows = await this.prisma.tenant.findMany({
      where: {
        ...(page.suspended === undefined ? {} : { suspendedAt: page.suspended ? { not: null } : null }),
        ...(after ? { OR: [{ createdAt: { gt: after[0] } }, { createdAt: after[0], id: { gt: after[1] } }] } : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: page.first,
      select: SELECT,
    });
    return rows.map(record);
  }

  async createAudited(input: NewTenant, actor: AuditActor): Promise<TenantRecord> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.tenant.create({ data: input, select: SELECT });
      const created = record(row);
      await AuditEntryRepository.write(tx, actor, {
        action: 'tenant.create',
        targetId: created.id,
        before: null,
        after: created,
      });
      return created;
    });
  }

  async update(id: string, changes: TenantChanges, actor: AuditActor): Promise<TenantRecord | null> {
    return this.change(id, actor, 'tenant.update', (tx) => tx.tenant.update({ where: { id }, data: changes }));
  }

  async suspend(id: string, reason: string | null, actor: AuditActor, now: Date): Promise<TenantRecord | null> {
    return this.change(id, actor, 'tenant.suspend', (tx) =>
      // Suspending again keeps the first moment; the reason is the latest one given.
      tx.tenant
        .update({ where: { id }, data: { suspendedReason: reason } })
        .then(() => tx.tenant.updateMany({ where: { id, suspendedAt: null }, data: { suspendedAt: now } })),
    );
  }

  async resume(id: string, actor: AuditActor): Promise<TenantRecord | null> {
    return this.change(id, actor, 'tenant.resume', (tx) =>
      tx.tenant.update({ where: { id }, data: { suspendedAt: null, suspendedReason: null } }),
    );
  }

  /**
   * Deletes the tenant with everything it owns. `urls` and `pending_alternates` carry no foreign
   * keys (see prisma/schema.prisma): their rows go here, in the same transaction. Returns the ids
   * of the sites that went, for the caller to announce and unschedule, or null if there was none.
   */
  async delete(id: string, actor: AuditActor): Promise<{ tenant: TenantRecord; siteIds: string[] } | null> {
    return this.prisma.$transaction(async (tx) => {
      const before = await this.get(id, tx);
      if (!before) return null;
      const sites = await tx.site.findMany({ where: { tenantId: id }, select: { id: true } });
      const siteIds = sites.map((site) => site.id);
      if (siteIds.length) {
        await tx.$executeRaw`DELETE FROM pending_alternates WHERE site_id = ANY(${siteIds}::uuid[])`;
        await tx.$executeRaw`DELETE FROM urls WHERE site_id = ANY(${siteIds}::uuid[])`;
      }
      await tx.tenant.delete({ where: { id } });
      await AuditEntryRepository.write(tx, actor, { action: 'tenant.delete', targetId: id, before, after: null });
      return { tenant: before, siteIds };
    });
  }

  /** The ids of a tenant's sites (to announce a suspension to the public servers). */
  async siteIds(tenantId: string): Promise<string[]> {
    return (await this.prisma.site.findMany({ where: { tenantId }, select: { id: true } })).map((site) => site.id);
  }

  /** Whether a tenant is suspended; a deleted one counts as suspended (nothing of it runs). */
  async isSuspended(tenantId: string): Promise<boolean> {
    const tenant = await this.prisma.tenant.findUnique({ where: { id: tenantId }, select: { suspendedAt: true } });
    return !tenant || tenant.suspendedAt !== null;
  }

  private async change(
    id: string,
    actor: AuditActor,
    action: string,
    apply: (tx: Tx) => Promise<unknown>,
  ): Promise<TenantRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      // Row lock: concurrent admin actions on one tenant record before/after in order.
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM tenants WHERE id = ${id}::uuid FOR UPDATE`;
      if (!locked.length) return null;
      const before = await this.get(id, tx);
      await apply(tx);
      const after = await this.get(id, tx);
      await AuditEntryRepository.write(tx, actor, { action, targetId: id, before, after });
      return after;
    });
  }
}

function record(row: Row): TenantRecord {
  return {
    id: row.id,
    name: row.name,
    maxSites: row.maxSites,
    maxUrls: row.maxUrls,
    suspendedAt: row.suspendedAt,
    suspendedReason: row.suspendedReason,
    createdAt: row.createdAt,
    siteCount: row._count.sites,
  };
}
