import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { SiteRepository, type Site, type SiteSettings } from '@sitemaps/data';
import { DomainError, normalizeHostname, notFound, validateRebuildCron, validateRobotsTxt } from '@sitemaps/domain';
import type { BuildProducer, RedisConnection } from '@sitemaps/jobs';
import { publishManifestChanged } from '@sitemaps/storage';
import { BUILD_PRODUCER, CONFIG, REDIS } from '../api.tokens';
import { decodeCursor, pageOf, uuidKey, type Page, type PageRequest } from '../common/pagination';
import type { SiteView } from './site.schemas';

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
}

export type SiteRow = Site;

@Injectable()
export class SitesService {
  constructor(
    private readonly sites: SiteRepository,
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A tenant's site, or 404: another tenant's site, and an id that is not even a uuid, are
   * indistinguishable from none. Every site-scoped operation starts here.
   */
  async get(tenantId: string, siteId: string): Promise<SiteRow> {
    const site = uuidKey.safeParse(siteId).success ? await this.sites.findForTenant(tenantId, siteId) : null;
    if (!site) throw notFound('site', siteId);
    return site;
  }

  async view(tenantId: string, siteId: string): Promise<SiteView> {
    return this.present(await this.get(tenantId, siteId));
  }

  /** Several of a tenant's sites in one query, each a view or its 404, in the order asked. */
  async viewMany(tenantId: string, siteIds: readonly string[]): Promise<(SiteView | DomainError)[]> {
    const ids = siteIds.filter((id) => uuidKey.safeParse(id).success);
    const rows = await this.sites.findManyForTenant(tenantId, ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return siteIds.map((id) => {
      const row = byId.get(id);
      return row ? this.present(row) : notFound('site', id);
    });
  }

  async list(tenantId: string, page: PageRequest): Promise<Page<SiteView>> {
    const after = decodeCursor(page.after, uuidKey);
    const rows = await this.sites.listForTenant(tenantId, { afterId: after, limit: page.first + 1 });
    return pageOf(rows, page.first, (site) => site.id, (site) => this.present(site));
  }

  async create(tenantId: string, input: SiteInput & { hostname: string }): Promise<SiteView> {
    const hostname = normalizeHostname(input.hostname);
    // QUOTA_SITES is checked in the creating transaction, so concurrent creates cannot pass it together.
    const site = await this.sites.create(tenantId, { ...settings(input), hostname });
    if (site.rebuildCron) await this.builds.scheduleRebuilds(site.id, site.rebuildCron);
    return this.present(site);
  }

  async update(tenantId: string, siteId: string, input: SiteInput): Promise<SiteView> {
    const before = await this.get(tenantId, siteId);
    const hostname = input.hostname === undefined ? undefined : normalizeHostname(input.hostname);
    const site = await this.sites.update(before.id, { ...settings(input), ...(hostname ? { hostname } : {}) }, before.hostname);
    if (site.rebuildCron !== before.rebuildCron) await this.builds.scheduleRebuilds(site.id, site.rebuildCron);
    // Public servers cache a site's settings (host, robots rules, cache age) until told.
    await publishManifestChanged(this.redis, site.id);
    // /sitemap.txt is a published file: the (coalesced) build that follows adds or drops it.
    if (site.textSitemap !== before.textSitemap) await this.builds.afterChange(site.id);
    return this.present(site);
  }

  async remove(tenantId: string, siteId: string): Promise<void> {
    const site = await this.get(tenantId, siteId);
    await this.builds.scheduleRebuilds(site.id, null);
    await this.sites.remove(site.id);
    await publishManifestChanged(this.redis, site.id);
  }

  /** The site's scheduled full rebuild and its next run. */
  async schedule(tenantId: string, siteId: string): Promise<{ rebuildCron: string | null; nextRunAt: Date | null }> {
    const site = await this.get(tenantId, siteId);
    return { rebuildCron: site.rebuildCron, nextRunAt: site.rebuildCron ? await this.builds.nextScheduledRebuild(site.id) : null };
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
    ...(input.rebuildCron !== undefined ? { rebuildCron: input.rebuildCron === null ? null : validateRebuildCron(input.rebuildCron) } : {}),
    ...(input.robotsTxt !== undefined
      ? { robotsTxt: input.robotsTxt === null ? null : validateRobotsTxt(input.robotsTxt, { allowNonStandard: input.robotsTxtNonStandard ?? false }) }
      : {}),
    ...(input.cacheMaxAge !== undefined ? { cacheMaxAge: input.cacheMaxAge } : {}),
    ...(input.textSitemap !== undefined ? { textSitemap: input.textSitemap } : {}),
  };
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
    indexNowKey: site.indexNowKey,
    sitemapUrl: `${site.scheme}://${site.hostname}/sitemap.xml`,
    crossSubmitRobotsLine: crossSubmitUrl ? `Sitemap: ${crossSubmitUrl}` : null,
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
  };
}
