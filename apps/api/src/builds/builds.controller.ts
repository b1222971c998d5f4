import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { z } from 'zod';
import type { PrismaClient } from '@sitemaps/data';
import { notFound } from '@sitemaps/domain';
import type { BuildProducer } from '@sitemaps/jobs';
import { BUILD_PRODUCER, PRISMA } from '../api.tokens';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { cursorQuery, decodeCursor, encodeCursor, parseInput } from '../errors/parse-input';
import { parseSiteId } from '../sites/sites.controller';
import { SitesService } from '../sites/sites.service';

const createBuild = z.object({ full: z.boolean().default(false) }).strict();
type BuildRow = Awaited<ReturnType<PrismaClient['build']['findFirstOrThrow']>>;

@Controller('v1/sites/:siteId/builds')
export class BuildsController {
  constructor(
    private readonly sites: SitesService,
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
  ) {}

  @Post()
  @HttpCode(202)
  @RequireScope('write')
  async create(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    const site = await this.sites.get(tenantId, parseSiteId(siteId));
    const { full } = parseInput(createBuild, body ?? {});
    const build = await this.prisma.build.create({ data: { siteId: site.id, full, trigger: 'api' } });
    // Enqueued after the row is committed, so the worker always finds it.
    await this.builds.enqueueBuild({ v: 1, siteId: site.id, buildId: build.id, full, trigger: 'api' });
    return { buildId: build.id, status: build.status };
  }

  @Get()
  async list(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Query() query: unknown) {
    const site = await this.sites.get(tenantId, parseSiteId(siteId));
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    const before = decodeCursor(cursor);
    const rows = await this.prisma.build.findMany({
      where: { siteId: site.id, ...(before ? { createdAt: { lt: new Date(before) } } : {}) },
      orderBy: { createdAt: 'desc' },
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    return { items: page.map(presentBuild), nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]?.createdAt.toISOString() ?? '') : null };
  }

  @Get(':buildId')
  async get(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Param('buildId') buildId: string) {
    const site = await this.sites.get(tenantId, parseSiteId(siteId));
    const id = z.uuid().safeParse(buildId);
    const build = id.success ? await this.prisma.build.findFirst({ where: { id: id.data, siteId: site.id } }) : null;
    if (!build) throw notFound('build', buildId);
    return presentBuild(build);
  }
}

function presentBuild(build: BuildRow) {
  return {
    id: build.id,
    status: build.status,
    full: build.full,
    trigger: build.trigger,
    shardsRendered: build.shardsRendered,
    shardsSkipped: build.shardsSkipped,
    urlCount: build.urlCount,
    byteSize: Number(build.byteSize),
    timings: build.timings,
    error: build.error,
    createdAt: build.createdAt,
    startedAt: build.startedAt,
    finishedAt: build.finishedAt,
  };
}
