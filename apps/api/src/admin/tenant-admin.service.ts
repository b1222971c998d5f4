// What the platform operator does with tenants (ADMIN_API_KEY): list, read, change quotas,
// suspend, resume, delete; find who claims a hostname; read the audit log. The repositories
// record each change with its audit entry in one transaction; this service then tells the
// public servers (a suspended tenant's sites answer 404 at once) and the build schedules.
import { Injectable } from '@nestjs/common';
import {
  AuditEntryRepository,
  SiteOwnershipRepository,
  TenantRepository,
  type AuditActor,
  type TenantChanges,
  type TenantRecord,
} from '@sitemaps/data';
import { normalizeHostname, notFound } from '@sitemaps/domain';
import {
  bigintKey,
  createdKey,
  createdKeyOf,
  decodeCursor,
  pageOf,
  uuidKey,
  type Page,
  type PageRequest,
} from '../common/pagination';
import { SiteLifecycle } from '../sites/site-lifecycle';
import type { AuditEntryView, TenantView } from './admin.schemas';

@Injectable()
export class TenantAdminService {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly audit: AuditEntryRepository,
    private readonly ownership: SiteOwnershipRepository,
    private readonly lifecycle: SiteLifecycle,
  ) {}

  async list(page: PageRequest & { suspended?: boolean | undefined }): Promise<Page<TenantView>> {
    const after = decodeCursor(page.after, createdKey);
    const rows = await this.tenants.list({
      ...(after ? { after } : {}),
      first: page.first + 1,
      ...(page.suspended === undefined ? {} : { suspended: page.suspended }),
    });
    return pageOf(rows, page.first, createdKeyOf, present);
  }

  async get(tenantId: string): Promise<TenantView> {
    return present(found(tenantId, uuidKey.safeParse(tenantId).success ? await this.tenants.get(tenantId) : null));
  }

  async update(tenantId: string, changes: TenantChanges, actor: AuditActor): Promise<TenantView> {
    return present(found(tenantId, await this.ifUuid(tenantId, () => this.tenants.update(tenantId, changes, actor))));
  }

  /** Its keys answer 401 TENANT_SUSPENDED from the next request; its sites 404 once the public servers hear of it, now. */
  async suspend(tenantId: string, reason: string | null, actor: AuditActor): Promise<TenantView> {
    const tenant = found(
      tenantId,
      await this.ifUuid(tenantId, () => this.tenants.suspend(tenantId, reason, actor, new Date())),
    );
    await this.announce(tenantId);
    return present(tenant);
  }

  async resume(tenantId: string, actor: AuditActor): Promise<TenantView> {
    const tenant = found(tenantId, await this.ifUuid(tenantId, () => this.tenants.resume(tenantId, actor)));
    await this.announce(tenantId);
    return present(tenant);
  }

  /** Deletes the tenant with its keys, sites, URLs, builds and files; the audit entry keeps what it was. */
  async remove(tenantId: string, actor: AuditActor): Promise<void> {
    const removed = found(tenantId, await this.ifUuid(tenantId, () => this.tenants.delete(tenantId, actor)));
    await this.lifecycle.deleted(removed.siteIds);
  }

  /** Every tenant's site for a hostname, the verified one first. */
  async claims(rawHostname: string) {
    const hostname = normalizeHostname(rawHostname, { allowPrivate: true });
    return { hostname, items: await this.ownership.claims(hostname) };
  }

  async auditLog(page: PageRequest & { targetId?: string | undefined }): Promise<Page<AuditEntryView>> {
    const before = decodeCursor(page.after, bigintKey);
    const rows = await this.audit.list({
      ...(before ? { before: BigInt(before) } : {}),
      first: page.first + 1,
      ...(page.targetId ? { targetId: page.targetId } : {}),
    });
    return pageOf(
      rows,
      page.first,
      (row) => row.id,
      (row) => row,
    );
  }

  /** The public servers drop what they cached of the tenant's sites. */
  private async announce(tenantId: string): Promise<void> {
    // With the primary's WAL position, so a public server reading a replica waits for the change.
    for (const siteId of await this.tenants.siteIds(tenantId)) await this.lifecycle.changed(siteId);
  }

  private async ifUuid<T>(tenantId: string, run: () => Promise<T | null>): Promise<T | null> {
    return uuidKey.safeParse(tenantId).success ? run() : null;
  }
}

function found<T>(tenantId: string, value: T | null): T {
  if (value === null) throw notFound('tenant', tenantId);
  return value;
}

function present(tenant: TenantRecord): TenantView {
  return { ...tenant };
}
