import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { z } from 'zod';
import { notFound } from '@sitemaps/domain';
import { CHANGEFREQS } from '@sitemaps/sitemap-xml';
import { CONFIG } from '../api.tokens';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { cursorQuery, decodeCursor, encodeCursor, parseInput } from '../errors/parse-input';
import { presentSite, SitesService } from './sites.service';

const siteFields = {
  hostname: z.string().min(1).max(253),
  scheme: z.enum(['http', 'https']).optional(),
  defaultChangefreq: z.enum(CHANGEFREQS).nullable().optional(),
  defaultPriority: z.number().min(0).max(1).nullable().optional(),
  rebuildCron: z.string().max(100).nullable().optional(),
  robotsTxt: z.string().nullable().optional(),
  robotsTxtNonStandard: z.boolean().optional(),
  cacheMaxAge: z.number().int().min(0).max(31_536_000).optional(),
  textSitemap: z.boolean().optional(),
};
const createSite = z.object(siteFields).strict();
const updateSite = z.object(siteFields).partial().strict();
export const siteIdParam = z.uuid();

@Controller('v1/sites')
export class SitesController {
  constructor(
    private readonly sites: SitesService,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private present(site: Parameters<typeof presentSite>[0]) {
    return presentSite(site, this.config.public.baseUrl);
  }

  /** The site's scheduled full rebuild and its next run. */
  @Get(':siteId/schedule')
  async schedule(@TenantId() tenantId: string, @Param('siteId') siteId: string) {
    const site = await this.sites.get(tenantId, parseSiteId(siteId));
    return { rebuildCron: site.rebuildCron, nextRunAt: site.rebuildCron ? await this.sites.nextScheduledRebuild(site.id) : null };
  }

  @Post()
  @RequireScope('write')
  async create(@TenantId() tenantId: string, @Body() body: unknown) {
    return this.present(await this.sites.create(tenantId, parseInput(createSite, body)));
  }

  @Get()
  async list(@TenantId() tenantId: string, @Query() query: unknown) {
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    const page = await this.sites.list(tenantId, decodeCursor(cursor), limit);
    return { items: page.items.map((site) => this.present(site)), nextCursor: page.next ? encodeCursor(page.next) : null };
  }

  @Get(':siteId')
  async get(@TenantId() tenantId: string, @Param('siteId') siteId: string) {
    return this.present(await this.sites.get(tenantId, parseSiteId(siteId)));
  }

  @Patch(':siteId')
  @RequireScope('write')
  async update(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    return this.present(await this.sites.update(tenantId, parseSiteId(siteId), parseInput(updateSite, body)));
  }

  @Delete(':siteId')
  @HttpCode(204)
  @RequireScope('write')
  async remove(@TenantId() tenantId: string, @Param('siteId') siteId: string) {
    await this.sites.remove(tenantId, parseSiteId(siteId));
  }
}

/** A malformed id cannot name a site: answer as for any unknown site. */
export function parseSiteId(value: string): string {
  const parsed = siteIdParam.safeParse(value);
  if (!parsed.success) throw notFound('site');
  return parsed.data;
}
