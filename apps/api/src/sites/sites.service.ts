import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@sitemaps/data';
import { Prisma } from '@sitemaps/data';
import { DomainError, normalizeHostname, notFound } from '@sitemaps/domain';
import { PRISMA } from '../api.tokens';

export interface SiteInput {
  hostname?: string;
  scheme?: 'http' | 'https';
  defaultChangefreq?: string | null;
  defaultPriority?: number | null;
}

type SiteRow = Awaited<ReturnType<PrismaClient['site']['findFirstOrThrow']>>;

@Injectable()
export class SitesService {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

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
    try {
      return await this.prisma.site.create({
        data: { tenantId, hostname, scheme: input.scheme ?? 'https', defaultChangefreq: input.defaultChangefreq ?? null, defaultPriority: input.defaultPriority ?? null },
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new DomainError('conflict', 'HOSTNAME_TAKEN', `a site with hostname ${hostname} already exists`, [{ field: 'hostname', message: 'already registered' }]);
      }
      throw error;
    }
  }

  async update(tenantId: string, siteId: string, input: SiteInput): Promise<SiteRow> {
    await this.get(tenantId, siteId);
    const data = {
      ...(input.hostname !== undefined ? { hostname: normalizeHostname(input.hostname) } : {}),
      ...(input.scheme !== undefined ? { scheme: input.scheme } : {}),
      ...(input.defaultChangefreq !== undefined ? { defaultChangefreq: input.defaultChangefreq } : {}),
      ...(input.defaultPriority !== undefined ? { defaultPriority: input.defaultPriority } : {}),
    };
    try {
      return await this.prisma.site.update({ where: { id: siteId }, data });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new DomainError('conflict', 'HOSTNAME_TAKEN', `a site with that hostname already exists`, [{ field: 'hostname', message: 'already registered' }]);
      }
      throw error;
    }
  }

  async remove(tenantId: string, siteId: string): Promise<void> {
    await this.get(tenantId, siteId);
    await this.prisma.site.delete({ where: { id: siteId } });
  }
}

export function presentSite(site: SiteRow) {
  return {
    id: site.id,
    hostname: site.hostname,
    scheme: site.scheme,
    defaultChangefreq: site.defaultChangefreq,
    defaultPriority: site.defaultPriority,
    sitemapUrl: `${site.scheme}://${site.hostname}/sitemap.xml`,
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
  };
}
