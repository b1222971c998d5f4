// Hostname ownership: each site's verification state, and who claims which hostname across
// tenants. A hostname is unique among verified sites only (partial unique index
// sites_verified_hostname_key); every transition runs under the hostname's advisory lock, so two
// claims verified at once cannot both win, and the winner fails the other pending claims.
import { HOSTNAME_VERIFIED_ELSEWHERE, type VerificationStatus, type VerificationTransition } from '@sitemaps/domain';
import { Prisma, type PrismaClient } from '../generated/prisma/client';

export interface OwnershipState {
  siteId: string;
  tenantId: string;
  hostname: string;
  scheme: string;
  status: VerificationStatus;
  token: string;
  failures: number;
  failingSince: Date | null;
  verifiedAt: Date | null;
  tenantSuspended: boolean;
}

export interface HostnameClaim {
  siteId: string;
  tenantId: string;
  tenantName: string;
  hostname: string;
  status: VerificationStatus;
  verifiedAt: Date | null;
  createdAt: Date;
}

export interface RecordedCheck {
  /** What the site's status is now: `taken` when another claim won the hostname meanwhile. */
  status: VerificationStatus;
  /** Other tenants' pending claims that this verification failed. */
  failedClaims: string[];
}

type Tx = Prisma.TransactionClient;

/** The verification columns a site is created (or re-pointed at a new hostname) with. */
export type OwnershipColumns = Pick<
  Prisma.SiteUncheckedCreateInput,
  | 'verificationStatus'
  | 'verifiedAt'
  | 'verificationDueAt'
  | 'verificationFailures'
  | 'verificationFailingSince'
  | 'verificationErrorCode'
  | 'verificationError'
>;

/** A claim to be checked now (SITE_VERIFICATION=on): pending, due at once, no history. */
export const pendingClaim = (now: Date): OwnershipColumns => ({
  verificationStatus: 'pending',
  verifiedAt: null,
  verificationDueAt: now,
  verificationFailures: 0,
  verificationFailingSince: null,
  verificationErrorCode: null,
  verificationError: null,
});

/** Development mode (SITE_VERIFICATION=off): verified on creation, never re-checked. */
export const verifiedUnproven = (now: Date): OwnershipColumns => ({
  verificationStatus: 'verified',
  verifiedAt: now,
  verificationDueAt: null,
});

export class SiteOwnershipRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async state(siteId: string): Promise<OwnershipState | null> {
    const site = await this.prisma.site.findUnique({
      where: { id: siteId },
      select: {
        id: true,
        tenantId: true,
        hostname: true,
        scheme: true,
        verificationStatus: true,
        verificationToken: true,
        verificationFailures: true,
        verificationFailingSince: true,
        verifiedAt: true,
        tenant: { select: { suspendedAt: true } },
      },
    });
    if (!site) return null;
    return {
      siteId: site.id,
      tenantId: site.tenantId,
      hostname: site.hostname,
      scheme: site.scheme,
      status: site.verificationStatus as VerificationStatus,
      token: site.verificationToken,
      failures: site.verificationFailures,
      failingSince: site.verificationFailingSince,
      verifiedAt: site.verifiedAt,
      tenantSuspended: site.tenant.suspendedAt !== null,
    };
  }

  /** The verified site that holds `hostname`, other than `exceptSiteId`. */
  async verifiedHolder(
    hostname: string,
    exceptSiteId?: string,
    db: Tx | PrismaClient = this.prisma,
  ): Promise<{ siteId: string; tenantId: string } | null> {
    const holder = await db.site.findFirst({
      where: { hostname, verificationStatus: 'verified', ...(exceptSiteId ? { id: { not: exceptSiteId } } : {}) },
      select: { id: true, tenantId: true },
    });
    return holder && { siteId: holder.id, tenantId: holder.tenantId };
  }

  /**
   * Claims up to `limit` sites whose check is due (their tenants not suspended) by moving their
   * due time `leaseMs` ahead, so the next sweep skips them while their check runs; a check that
   * is lost (a Redis restart) comes due again when the lease ends.
   */
  async claimDue(now: Date, leaseMs: number, limit: number): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      UPDATE sites SET verification_due_at = ${new Date(now.getTime() + leaseMs)}
      WHERE id IN (
        SELECT s.id FROM sites s JOIN tenants t ON t.id = s.tenant_id
        WHERE s.verification_due_at <= ${now} AND t.suspended_at IS NULL
        ORDER BY s.verification_due_at
        LIMIT ${limit}
        FOR UPDATE OF s SKIP LOCKED
      )
      RETURNING id`;
    return rows.map((row) => row.id);
  }

  /** A check asked for now (a taken claim becomes checkable again). */
  async requestCheck(siteId: string, now: Date): Promise<void> {
    await this.prisma.site.update({ where: { id: siteId }, data: { verificationDueAt: now } });
  }

  /** The claim lost to a verified site of another tenant: not checked again unless asked. */
  async markTaken(siteId: string, now: Date): Promise<void> {
    await this.prisma.site.update({ where: { id: siteId }, data: takenData(now) });
  }

  /**
   * Writes a check's transition. Any check that finds the hostname verified elsewhere (a race
   * the lock settles: the other site may have won while this check was looking) makes the site
   * `taken` instead, so a slow failing check cannot undo that; a verification that wins fails
   * every other pending claim of the hostname.
   */
  async record(siteId: string, hostname: string, transition: VerificationTransition): Promise<RecordedCheck> {
    return this.prisma.$transaction(async (tx) => {
      await lockHostname(tx, hostname);
      if (await this.verifiedHolder(hostname, siteId, tx)) {
        await tx.site.update({ where: { id: siteId }, data: takenData(transition.checkedAt) });
        return { status: 'taken', failedClaims: [] };
      }
      await tx.site.update({
        where: { id: siteId },
        data: {
          verificationStatus: transition.status,
          verifiedAt: transition.verifiedAt,
          verificationCheckedAt: transition.checkedAt,
          verificationDueAt: transition.dueAt,
          verificationFailures: transition.failures,
          verificationFailingSince: transition.failingSince,
          verificationErrorCode: transition.errorCode,
          verificationError: transition.error,
        },
      });
      if (transition.status !== 'verified') return { status: transition.status, failedClaims: [] };
      const others = await tx.site.findMany({
        where: { hostname, id: { not: siteId }, verificationStatus: 'pending' },
        select: { id: true },
      });
      if (others.length)
        await tx.site.updateMany({
          where: { id: { in: others.map((o) => o.id) } },
          data: takenData(transition.checkedAt),
        });
      return { status: 'verified', failedClaims: others.map((o) => o.id) };
    });
  }

  /** Every site that names `hostname`, across tenants, verified first. */
  async claims(hostname: string): Promise<HostnameClaim[]> {
    const rows = await this.prisma.site.findMany({
      where: { hostname },
      select: {
        id: true,
        tenantId: true,
        hostname: true,
        verificationStatus: true,
        verifiedAt: true,
        createdAt: true,
        tenant: { select: { name: true } },
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows
      .map((row) => ({
        siteId: row.id,
        tenantId: row.tenantId,
        tenantName: row.tenant.name,
        hostname: row.hostname,
        status: row.verificationStatus as VerificationStatus,
        verifiedAt: row.verifiedAt,
        createdAt: row.createdAt,
      }))
      .sort((a, b) => Number(b.status === 'verified') - Number(a.status === 'verified'));
  }
}

function takenData(now: Date) {
  return {
    verificationStatus: 'taken',
    verifiedAt: null,
    verificationCheckedAt: now,
    verificationDueAt: null,
    verificationFailures: 0,
    verificationFailingSince: null,
    verificationErrorCode: HOSTNAME_VERIFIED_ELSEWHERE.code,
    verificationError: HOSTNAME_VERIFIED_ELSEWHERE.message,
  } satisfies Prisma.SiteUpdateInput;
}

/** One transition per hostname at a time, across processes. */
async function lockHostname(tx: Tx, hostname: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`site-hostname:${hostname}`}, 0))`;
}
