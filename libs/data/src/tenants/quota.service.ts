// The one place tenant quotas are enforced, for every path that adds sites or URLs (REST,
// GraphQL, bulk imports). A check and the write it allows are one transaction: the tenant's row
// is locked (FOR NO KEY UPDATE, which leaves foreign-key checks of other tables alone) before
// anything is counted, so concurrent writers of one tenant take turns and none counts a state
// another is about to change. Tenants without a limit take no lock.
//
// URLs are counted by `sites.url_count`, kept by the writes themselves in their transaction
// (under the site's URL lock), so a check adds up one number per site instead of counting rows.
import {
  admitWithinUrlQuota,
  assertSiteQuota,
  urlQuotaExceeded,
  type QuotaAdmission,
  type QuotaMode,
  type UrlQuotaState,
} from '@sitemaps/domain';
import type { Prisma } from '../generated/prisma/client';
import type { Queryable } from '../urls/url.repository';

export interface UrlReservation<T> {
  siteId: string;
  /** The write's entries, one per loc. */
  entries: readonly T[];
  /** Whether an entry adds a live URL (it is new, or revives a deleted one). */
  adds: (entry: T) => boolean;
  /** Where an entry has its index in the request, for the refusal's details. */
  indexOf: (entry: T) => number;
  mode: QuotaMode;
}

export class QuotaService {
  /**
   * Admits the entries that fit under the tenant's URL quota, in the caller's transaction (which
   * must hold the site's URL lock, and `countUrls` the URLs it adds before it commits).
   * `refuse`: throws QUOTA_URLS if any does not fit; `reject`: returns those past the limit as `over`.
   */
  async admitUrls<T>(db: Queryable, reservation: UrlReservation<T>): Promise<QuotaAdmission<T>> {
    const { siteId, entries, adds } = reservation;
    if (!entries.some(adds)) return { accepted: [...entries], over: [], added: 0 };
    const quota = await this.lockUrlQuota(db, siteId);
    const admission = admitWithinUrlQuota(entries, adds, quota);
    if (quota && reservation.mode === 'refuse' && admission.over.length > 0) {
      throw urlQuotaExceeded(quota, admission.added + admission.over.length, admission.over.map(reservation.indexOf));
    }
    return admission;
  }

  /**
   * Keeps the site's count of live URLs: every write that adds (positive) or deletes (negative)
   * live URLs calls this in its transaction, under the site's URL lock.
   */
  async countUrls(db: Queryable, siteId: string, delta: number): Promise<void> {
    if (delta !== 0) await db.query('UPDATE sites SET url_count = url_count + $2 WHERE id = $1', [siteId, delta]);
  }

  /**
   * Locks the tenant's row for the next site to be counted and created in this transaction;
   * throws QUOTA_SITES if the tenant has no room for it.
   */
  async reserveSite(tx: Prisma.TransactionClient, tenantId: string): Promise<void> {
    const [tenant] = await tx.$queryRaw<{ max_sites: number | null }[]>`
      SELECT max_sites FROM tenants WHERE id = ${tenantId}::uuid AND max_sites IS NOT NULL FOR NO KEY UPDATE`;
    if (!tenant) return;
    // A statement after the lock: it sees every site a transaction that held the lock created.
    const [{ n }] = (await tx.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM sites WHERE tenant_id = ${tenantId}::uuid`) as [{ n: number }];
    assertSiteQuota(tenant.max_sites, n);
  }

  private async lockUrlQuota(db: Queryable, siteId: string): Promise<UrlQuotaState | null> {
    const { rows } = await db.query<{ id: string; max_urls: number }>(
      `SELECT t.id, t.max_urls FROM tenants t JOIN sites s ON s.tenant_id = t.id
        WHERE s.id = $1 AND t.max_urls IS NOT NULL FOR NO KEY UPDATE OF t`,
      [siteId],
    );
    const tenant = rows[0];
    if (!tenant) return null;
    const { rows: sums } = await db.query<{ stored: string }>(
      'SELECT coalesce(sum(url_count), 0) AS stored FROM sites WHERE tenant_id = $1',
      [tenant.id],
    );
    return { max: tenant.max_urls, stored: Number(sums[0]?.stored ?? 0) };
  }
}
