import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import {
  pendingClaim,
  ReadRouter,
  SiteOwnershipRepository,
  SiteRepository,
  verifiedUnproven,
  type Site,
  type SiteSettings,
} from '@sitemaps/data';
import {
  challengeRecordName,
  DomainError,
  normalizeHostname,
  notFound,
  validateRebuildCron,
  validateRobotsTxt,
  validateShardSizes,
  validateStaleAfterDays,
  verificationFileUrl,
  type VerificationStatus,
} from '@sitemaps/domain';
import type { BuildProducer, VerificationProducer } from '@sitemaps/jobs';
import { VERIFICATION_PRODUCER } from '../api.tokens';
import { BUILD_PRODUCER, CONFIG } from '@sitemaps/core';
import { decodeCursor, pageOf, uuidKey, type Page, type PageRequest } from '../common/pagination';
import type { SiteView } from './site.schemas';
import { SiteLifecycle } from './site-lifecycle';

export interface SiteInput {
  hostname?: string;
  scheme?: 'http' | 'https';
  defaultChangefreq?: string | null;
  defaultPriority?: number | null;
  rebuildCron?: string | null;
  robotsTxt?: string | null;
  /** Allow lines only some engines read (Host:, Clean-param:) in robotsTxt. */
  robotsTxtNonStandard?: boolean;
  cacheMaxAge?: number;
  textSitemap?: boolean;
  xslStylesheet?: boolean;
  /** URLs per file for new shards, and per section over it. */
  shardSize?: number | null;
  sectionShardSizes?: { section: string; shardSize: number }[];
  /** Days a changed shard may stay unread by verified crawlers before sitemap.stale; null: never. */
  staleAfterDays?: number | null;
}

export type SiteRow = Site;

@Injectable()
export class SitesService {
  constructor(
    private readonly sites: SiteRepository,
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
    private readonly lifecycle: SiteLifecycle,
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly ownership: SiteOwnershipRepository,
    @Inject(VERIFICATION_PRODUCER) private readonly verification: VerificationProducer,
    private readonly reads: ReadRouter,
  ) {}

  /**
   * A tenant's site, or 404: another tenant's site, and an id that is not even a uuid, are
   * indistinguishable from none. Every site-scoped operation starts here: a write with the
   * primary's repository (the default), a read with the one its ReadRouter reader gives.
   */
  async get(tenantId: string, siteId: string, sites: SiteRepository = this.sites): Promise<SiteRow> {
    const site = uuidKey.safeParse(siteId).success ? await sites.findForTenant(tenantId, siteId) : null;
    if (!site) throw notFound('site', siteId);
    return site;
  }

  async view(tenantId: string, siteId: string): Promise<SiteView> {
    const reader = await this.reads.readerFor(tenantId);
    return this.present(await this.get(tenantId, siteId, reader.sites));
  }

  /** Several of a tenant's sites in one query, each a view or its 404, in the order asked. */
  async viewMany(tenantId: string, siteIds: readonly string[]): Promise<(SiteView | DomainError)[]> {
    const ids = siteIds.filter((id) => uuidKey.safeParse(id).success);
    const reader = await this.reads.readerFor(tenantId);
    const rows = await reader.sites.findManyForTenant(tenantId, ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return siteIds.map((id) => {
      const row = byId.get(id);
      return row ? this.present(row) : notFound('site', id);
    });
  }

  async list(tenantId: string, page: PageRequest): Promise<Page<SiteView>> {
    const after = decodeCursor(page.after, uuidKey);
    const reader = await this.reads.readerFor(tenantId);
    const rows = await reader.sites.listForTenant(tenantId, { afterId: after, limit: page.first + 1 });
    return pageOf(
      rows,
      page.first,
      (site) => site.id,
      (site) => this.present(site),
    );
  }

  /**
   * With SITE_VERIFICATION=on a new site is pending (checked at once, then on the worker's
   * schedule) and a hostname another site has verified is refused; off, it is verified now.
   */
  async create(tenantId: string, input: SiteInput & { hostname: string }): Promise<SiteView> {
    const hostname = this.hostname(input.hostname);
    const verify = this.config.verification.enabled;
    if (verify && (await this.ownership.verifiedHolder(hostname))) throw hostnameTakenError(hostname);
    const now = new Date();
    // QUOTA_SITES is checked in the creating transaction, so concurrent creates cannot pass it together.
    const site = await this.sites.create(
      tenantId,
      { ...settings(input), hostname },
      verify ? pendingClaim(now) : verifiedUnproven(now),
    );
    if (site.rebuildCron) await this.builds.scheduleRebuilds(site.id, site.rebuildCron);
    if (verify) await this.verification.requestCheck(site.id);
    return this.present(site);
  }

  /**
   * Queues a check of the site's proof (202): now, or once VERIFICATION_REQUEST_INTERVAL_MS since
   * the last one asked for has passed (nextCheckAt says when). With SITE_VERIFICATION=off there
   * is nothing to check.
   */
  async verify(tenantId: string, siteId: string): Promise<SiteView> {
    const site = await this.get(tenantId, siteId);
    if (!this.config.verification.enabled) return this.present(site);
    const delay = await this.verification.askedCheckDelay(site.id, this.config.verification.requestIntervalMs);
    const at = new Date(Date.now() + delay);
    await this.ownership.requestCheck(site.id, at);
    await this.verification.requestCheck(site.id, delay);
    return this.present({ ...site, verificationDueAt: at });
  }

  private hostname(input: string): string {
    // Development mode (verification off) may use names no one could prove: demo.localhost.
    return normalizeHostname(input, { allowPrivate: !this.config.verification.enabled });
  }

  async update(tenantId: string, siteId: string, input: SiteInput): Promise<SiteView> {
    const before = await this.get(tenantId, siteId);
    const hostname = input.hostname === undefined ? undefined : this.hostname(input.hostname);
    // A new hostname needs its own proof: the site is pending again (and not served) until it has one.
    const reverify = hostname !== undefined && hostname !== before.hostname && this.config.verification.enabled;
    if (reverify && (await this.ownership.verifiedHolder(hostname, before.id))) throw hostnameTakenError(hostname);
    const ownership = reverify ? pendingClaim(new Date()) : {};
    const site = await this.sites.update(
      before.id,
      { ...settings(input), ...(hostname ? { hostname } : {}) },
      before.hostname,
      ownership,
    );
    if (reverify) await this.verification.requestCheck(site.id);
    if (site.rebuildCron !== before.rebuildCron) await this.builds.scheduleRebuilds(site.id, site.rebuildCron);
    // Public servers cache a site's settings (host, robots rules, cache age) until told.
    await this.lifecycle.changed(site.id);
    // /sitemap.txt is a published file: the (coalesced) build that follows adds or drops it.
    // The stylesheet is in every file's header: every shard renders again.
    if (site.xslStylesheet !== before.xslStylesheet) await this.sites.markShardsDirty(site.id);
    if (site.textSitemap !== before.textSitemap || site.xslStylesheet !== before.xslStylesheet)
      await this.builds.afterChange(site.id);
    return this.present(site);
  }

  async remove(tenantId: string, siteId: string): Promise<void> {
    const site = await this.get(tenantId, siteId);
    await this.sites.remove(site.id);
    await this.lifecycle.deleted([site.id]);
  }

  /** The site's scheduled full rebuild and its next run. */
  async schedule(tenantId: string, siteId: string): Promise<{ rebuildCron: string | null; nextRunAt: Date | null }> {
    const site = await this.get(tenantId, siteId, (await this.reads.readerFor(tenantId)).sites);
    return {
      rebuildCron: site.rebuildCron,
      nextRunAt: site.rebuildCron ? await this.builds.nextScheduledRebuild(site.id) : null,
    };
  }

  present(site: SiteRow): SiteView {
    return presentSite(site, this.config.public.baseUrl);
  }
}

/** The settable columns, validated; undefined leaves a column as it is. */
function settings(input: SiteInput): SiteSettings {
  return {
    ...(input.scheme !== undefined ? { scheme: input.scheme } : {}),
    ...(input.defaultChangefreq !== undefined ? { defaultChangefreq: input.defaultChangefreq } : {}),
    ...(input.defaultPriority !== undefined ? { defaultPriority: input.defaultPriority } : {}),
    ...(input.rebuildCron !== undefined
      ? { rebuildCron: input.rebuildCron === null ? null : validateRebuildCron(input.rebuildCron) }
      : {}),
    ...(input.robotsTxt !== undefined
      ? {
          robotsTxt:
            input.robotsTxt === null
              ? null
              : validateRobotsTxt(input.robotsTxt, { allowNonStandard: input.robotsTxtNonStandard ?? false }),
        }
      : {}),
    ...(input.cacheMaxAge !== undefined ? { cacheMaxAge: input.cacheMaxAge } : {}),
    ...(input.textSitemap !== undefined ? { textSitemap: input.textSitemap } : {}),
    ...(input.xslStylesheet !== undefined ? { xslStylesheet: input.xslStylesheet } : {}),
    ...(input.shardSize !== undefined
      ? { shardSize: validateShardSizes({ shardSize: input.shardSize }).shardSize }
      : {}),
    ...(input.sectionShardSizes !== undefined
      ? {
          sectionShardSizes: validateShardSizes({
            sectionShardSizes: Object.fromEntries(
              input.sectionShardSizes.map((entry) => [entry.section, entry.shardSize]),
            ),
          }).sectionShardSizes,
        }
      : {}),
    ...(input.staleAfterDays !== undefined ? { staleAfterDays: validateStaleAfterDays(input.staleAfterDays) } : {}),
  };
}

function hostnameTakenError(hostname: string): DomainError {
  return new DomainError('conflict', 'HOSTNAME_TAKEN', `a site with hostname ${hostname} already exists`, [
    { field: 'hostname', message: 'already registered' },
  ]);
}

export function presentSite(site: SiteRow, publicBaseUrl?: string): SiteView {
  const crossSubmitUrl = publicBaseUrl ? `${publicBaseUrl.replace(/\/$/, '')}/s/${site.hostname}/sitemap.xml` : null;
  return {
    id: site.id,
    hostname: site.hostname,
    scheme: site.scheme,
    defaultChangefreq: site.defaultChangefreq,
    defaultPriority: site.defaultPriority,
    rebuildCron: site.rebuildCron,
    robotsTxt: site.robotsTxt,
    cacheMaxAge: site.cacheMaxAge,
    textSitemap: site.textSitemap,
    xslStylesheet: site.xslStylesheet,
    ...shardSizesOf(site),
    staleAfterDays: site.staleAfterDays,
    indexNowKey: site.indexNowKey,
    sitemapUrl: `${site.scheme}://${site.hostname}/sitemap.xml`,
    crossSubmitRobotsLine: crossSubmitUrl ? `Sitemap: ${crossSubmitUrl}` : null,
    verification: {
      status: site.verificationStatus as VerificationStatus,
      token: site.verificationToken,
      dnsRecord: { type: 'TXT', name: challengeRecordName(site.hostname), value: site.verificationToken },
      fileUrl: verificationFileUrl(site.scheme, site.hostname),
      verifiedAt: site.verifiedAt,
      checkedAt: site.verificationCheckedAt,
      nextCheckAt: site.verificationDueAt,
      error: site.verificationErrorCode
        ? { code: site.verificationErrorCode, message: site.verificationError ?? '' }
        : null,
    },
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
  };
}

function shardSizesOf(site: SiteRow): Pick<SiteView, 'shardSize' | 'sectionShardSizes'> {
  const sizes = validateShardSizes({ shardSize: site.shardSize, sectionShardSizes: site.sectionShardSizes });
  return {
    shardSize: sizes.shardSize,
    sectionShardSizes: Object.entries(sizes.sectionShardSizes)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([section, shardSize]) => ({ section, shardSize })),
  };
}
