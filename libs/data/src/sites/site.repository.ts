// The sites aggregate. Creation goes through the tenant's site quota in the same transaction;
// deletion takes the site's URL lock, so no URL write of the site is in flight when its rows go.
import { DomainError } from '@sitemaps/domain';
import type { Pool } from 'pg';
import { Prisma, type PrismaClient, type Site } from '../generated/prisma/client';
import type { QuotaService } from '../tenants/quota.service';
import type { OwnershipColumns } from './site-ownership.repository';
import { inTransaction, lockSiteUrls } from '../urls/url.repository';

export type { Site } from '../generated/prisma/client';

/** The settable columns; undefined leaves a column as it is. */
export interface SiteSettings {
  hostname?: string | undefined;
  scheme?: string | undefined;
  defaultChangefreq?: string | null | undefined;
  defaultPriority?: number | null | undefined;
  rebuildCron?: string | null | undefined;
  robotsTxt?: string | null | undefined;
  cacheMaxAge?: number | undefined;
  textSitemap?: boolean | undefined;
  xslStylesheet?: boolean | undefined;
  shardSize?: number | null | undefined;
  sectionShardSizes?: Record<string, number> | undefined;
  staleAfterDays?: number | null | undefined;
}

/** A site creation waits this long at most for its turn under the tenant's quota lock. */
const CREATE_TRANSACTION = { maxWait: 30_000, timeout: 30_000 };

export class SiteRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: Pool,
    private readonly quota: QuotaService,
  ) {}

  /** The site with this id (a uuid), or null: for jobs, which carry a site id their API call checked. */
  findById(siteId: string): Promise<Site | null> {
    return this.prisma.site.findUnique({ where: { id: siteId } });
  }

  /** The tenant's site with this id, or null (another tenant's site is none). `siteId` must be a uuid. */
  findForTenant(tenantId: string, siteId: string): Promise<Site | null> {
    return this.prisma.site.findFirst({ where: { id: siteId, tenantId } });
  }

  /** The tenant's sites among `siteIds` (uuids), in no particular order. */
  findManyForTenant(tenantId: string, siteIds: readonly string[]): Promise<Site[]> {
    return siteIds.length
      ? this.prisma.site.findMany({ where: { id: { in: [...siteIds] }, tenantId } })
      : Promise.resolve([]);
  }

  /** The tenant's sites in id order, after `afterId`, at most `limit`. */
  listForTenant(tenantId: string, page: { afterId: string | undefined; limit: number }): Promise<Site[]> {
    return this.prisma.site.findMany({
      where: { tenantId, ...(page.afterId ? { id: { gt: page.afterId } } : {}) },
      orderBy: { id: 'asc' },
      take: page.limit,
    });
  }

  /** Sites with a scheduled full rebuild, and its cron expression. */
  async withRebuildSchedule(): Promise<{ id: string; rebuildCron: string }[]> {
    const rows = await this.prisma.site.findMany({
      where: { rebuildCron: { not: null } },
      select: { id: true, rebuildCron: true },
    });
    return rows.flatMap((row) => (row.rebuildCron ? [{ id: row.id, rebuildCron: row.rebuildCron }] : []));
  }

  /** Creates a site if the tenant's site quota has room (QUOTA_SITES) and the hostname is free (HOSTNAME_TAKEN). */
  async create(
    tenantId: string,
    settings: SiteSettings & { hostname: string },
    ownership: OwnershipColumns = {},
  ): Promise<Site> {
    return this.prisma
      .$transaction(async (tx) => {
        await this.quota.reserveSite(tx, tenantId);
        return tx.site.create({
          data: { tenantId, scheme: 'https', ...definedSettings(settings), hostname: settings.hostname, ...ownership },
        });
      }, CREATE_TRANSACTION)
      .catch(hostnameTaken(settings.hostname));
  }

  /** Updates a site's settings (HOSTNAME_TAKEN if its new hostname belongs to another site). */
  update(
    siteId: string,
    settings: SiteSettings,
    currentHostname: string,
    ownership: OwnershipColumns = {},
  ): Promise<Site> {
    return this.prisma.site
      .update({ where: { id: siteId }, data: { ...definedSettings(settings), ...ownership } })
      .catch(hostnameTaken(settings.hostname ?? currentHostname));
  }

  /** Every shard of the site re-renders in the next build: a change to what every file holds (its stylesheet). */
  async markShardsDirty(siteId: string): Promise<void> {
    await this.prisma.shard.updateMany({ where: { siteId }, data: { dirty: true } });
  }

  /**
   * Deletes a site with everything it has. urls and pending_alternates carry no foreign keys
   * (see prisma/schema.prisma): their rows go here, in the same transaction, under the site's URL
   * lock; the rest goes by cascade.
   */
  async remove(siteId: string): Promise<void> {
    await inTransaction(this.pool, async (db) => {
      await lockSiteUrls(db, siteId);
      await db.query('DELETE FROM pending_alternates WHERE site_id = $1', [siteId]);
      await db.query('DELETE FROM urls WHERE site_id = $1', [siteId]);
      await db.query('DELETE FROM sites WHERE id = $1', [siteId]);
    });
  }
}

function definedSettings(settings: SiteSettings) {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as SiteSettings;
}

function hostnameTaken(hostname: string) {
  return (error: unknown): never => {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DomainError('conflict', 'HOSTNAME_TAKEN', `a site with hostname ${hostname} already exists`, [
        { field: 'hostname', message: 'already registered' },
      ]);
    }
    throw error;
  };
}
