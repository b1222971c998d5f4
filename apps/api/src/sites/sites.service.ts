import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@sitemaps/data';
import { Prisma } from '@sitemaps/data';
import { DomainError, normalizeHostname, notFound, validateRebuildCron, validateRobotsTxt } from '@sitemaps/domain';
import type { BuildProducer } from '@sitemaps/jobs';
import type { Redis } from 'ioredis';
import { publishManifestChanged } from '@sitemaps/storage';
import { BUILD_PRODUCER, PRISMA, REDIS } from '../api.tokens';

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

type SiteRow = Awaited<ReturnType<PrismaClient['site']['findFirstOrThrow']>>;

@Injectable()
export class SitesService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** A tenant's site, or 404: another tenant's site is indistinguishable from none. */
  async get(tenantId: string, siteId: string): Promise<SiteRow> {
    const site = await this.prisma.site.findFirst({ where: { id: siteId, tenantId } });
    if (!site) throw notFound('site', siteId);
    return site;
  }

  async list(tenantId: string, after: string | undefined, limit: number) {
    const rows = await this.prisma.site.findMany({
      where: { tenantId, ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: 'asc' },
      take: limit + 1,
    });
    return { items: rows.slice(0, limit), next: rows.length > limit ? rows[limit - 1]?.id : undefined };
  }

  async create(tenantId: string, input: SiteInput & { hostname: string }): Promise<SiteRow> {
    const hostname = normalizeHostname(input.hostname);
    const tenant = await this.prisma.tenant.findUniqueOrThrow({ where: { id: tenantId } });
    if (tenant.maxSites !== null && (await this.prisma.site.count({ where: { tenantId } })) >= tenant.maxSites) {
      throw new DomainError('forbidden', 'QUOTA_SITES', `tenant quota of ${tenant.maxSites} sites reached`);
    }
    const site = await this.prisma.site.create({ data: { tenantId, scheme: 'https', ...settings(input), hostname } }).catch(hostnameTaken(hostname));
    if (site.rebuildCron) await this.builds.scheduleRebuilds(site.id, site.rebuildCron);
    return site;
  }

  async update(tenantId: string, siteId: string, input: SiteInput): Promise<SiteRow> {
    const before = await this.get(tenantId, siteId);
    const hostname = input.hostname === undefined ? undefined : normalizeHostname(input.hostname);
    const site = await this.prisma.site
      .update({ where: { id: siteId }, data: { ...settings(input), ...(hostname ? { hostname } : {}) } })
      .catch(hostnameTaken(hostname ?? before.hostname));
    if (site.rebuildCron !== before.rebuildCron) await this.builds.scheduleRebuilds(site.id, site.rebuildCron);
    // Public servers cache a site's settings (host, robots rules, cache age) until told.
    await publishManifestChanged(this.redis, site.id);
    return site;
  }

  async remove(tenantId: string, siteId: string): Promise<void> {
    await this.get(tenantId, siteId);
    await this.builds.scheduleRebuilds(siteId, null);
    await this.prisma.site.delete({ where: { id: siteId } });
    await publishManifestChanged(this.redis, siteId);
  }

  nextScheduledRebuild(siteId: string): Promise<Date | null> {
    return this.builds.nextScheduledRebuild(siteId);
  }
}

/** The settable columns, validated; undefined leaves a column as it is. */
function settings(input: SiteInput) {
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

function hostnameTaken(hostname: string) {
  return (error: unknown): never => {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DomainError('conflict', 'HOSTNAME_TAKEN', `a site with hostname ${hostname} already exists`, [{ field: 'hostname', message: 'already registered' }]);
    }
    throw error;
  };
}

export function presentSite(site: SiteRow, publicBaseUrl?: string) {
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
    /** For sites that keep their own robots.txt: the line that authorises the platform-hosted index. */
    crossSubmitRobotsLine: crossSubmitUrl ? `Sitemap: ${crossSubmitUrl}` : null,
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
  };
}
