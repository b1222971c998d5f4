import { Inject, Injectable } from '@nestjs/common';
import { BuildRepository, ReadRouter, type Build } from '@sitemaps/data';
import { notFound } from '@sitemaps/domain';
import type { BuildProducer } from '@sitemaps/jobs';
import { BUILD_PRODUCER } from '@sitemaps/core';
import {
  createdKey,
  createdKeyOf,
  decodeCursor,
  pageOf,
  uuidKey,
  type Page,
  type PageRequest,
} from '../common/pagination';
import { SitesService } from '../sites/sites.service';
import type { BuildView } from './build.schemas';

type BuildRow = Build;

@Injectable()
export class BuildsService {
  constructor(
    private readonly sites: SitesService,
    private readonly buildRepository: BuildRepository,
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
    private readonly reads: ReadRouter,
  ) {}

  async create(tenantId: string, siteId: string, full: boolean): Promise<BuildView> {
    const site = await this.sites.get(tenantId, siteId);
    const build = await this.buildRepository.create({ siteId: site.id, full, trigger: 'api' });
    if (!build) throw notFound('site', siteId); // deleted meanwhile
    // Enqueued after the row is committed, so the worker always finds it.
    await this.builds.enqueueBuild({ v: 1, siteId: site.id, buildId: build.id, full, trigger: 'api' });
    return presentBuild(build);
  }

  /** Newest first. */
  async list(tenantId: string, siteId: string, page: PageRequest): Promise<Page<BuildView>> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    const before = decodeCursor(page.after, createdKey);
    const rows = await reader.builds.listForSite(site.id, { before, limit: page.first + 1 });
    return pageOf(rows, page.first, createdKeyOf, presentBuild);
  }

  async get(tenantId: string, siteId: string, buildId: string): Promise<BuildView> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    const build = uuidKey.safeParse(buildId).success ? await reader.builds.findForSite(site.id, buildId) : null;
    if (!build) throw notFound('build', buildId);
    return presentBuild(build);
  }

  /** The tenant's build by its id alone (for `node(id:)`), or 404. */
  async find(tenantId: string, buildId: string): Promise<BuildView> {
    const reader = await this.reads.readerFor(tenantId);
    const build = uuidKey.safeParse(buildId).success ? await reader.builds.findForTenant(tenantId, buildId) : null;
    if (!build) throw notFound('build', buildId);
    return presentBuild(build);
  }
}

function presentBuild(build: BuildRow): BuildView {
  return {
    id: build.id,
    siteId: build.siteId,
    status: build.status as BuildView['status'],
    full: build.full,
    trigger: build.trigger,
    shardsRendered: build.shardsRendered,
    shardsSkipped: build.shardsSkipped,
    urlCount: build.urlCount,
    byteSize: Number(build.byteSize),
    timings: build.timings,
    indexNow: build.indexNow,
    error: build.error,
    createdAt: build.createdAt,
    startedAt: build.startedAt,
    finishedAt: build.finishedAt,
  };
}
