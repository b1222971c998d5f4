// The builds aggregate: a build and its shard renders (what the publish step merges).
import { LEGACY_SHARD_FOLDER, type ShardRenderOutput } from '@sitemaps/domain';
import { Prisma, type Build, type PrismaClient, type Site } from '../generated/prisma/client';
import {
  renderedFilesSchema,
  renderSlicesSchema,
  stageTimingsSchema,
  type RenderSlices,
  type StageTimings,
} from './build.schemas';

export type { Build } from '../generated/prisma/client';

export type BuildTrigger = 'api' | 'schedule' | 'change';

export interface ShardRenderRecord extends ShardRenderOutput {
  buildId: string;
  urlCount: number;
  timings: StageTimings;
  /** How its one file is cut into slices, when it is. */
  slices?: RenderSlices | null;
}

/** What planning a site's build reads, in one query (see BuildRepository.planning). */
export interface BuildPlanning {
  /** The site is gone or its tenant suspended: it gets no builds. */
  closed: boolean;
  /** The site has published a manifest. */
  published: boolean;
  /** Its manifest still lists shards in the legacy folder (`sitemaps/`). */
  legacy: boolean;
  /** Its shards in id order, with their dirty flags. */
  shards: { id: bigint; dirty: boolean }[];
}

/** A build with what its publish needs: the site, and every shard render so far. */
export interface BuildToPublish {
  build: Build;
  site: Site;
  renders: (ShardRenderOutput & { timings: StageTimings | null })[];
}

export class BuildRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * A new build, queued or already running (a planner that creates its build starts it at once);
   * null when its site is gone (deleted after the change that queued it).
   */
  async create(build: {
    siteId: string;
    full: boolean;
    trigger: BuildTrigger;
    startedAt?: Date;
  }): Promise<Build | null> {
    const data = build.startedAt ? { ...build, status: 'running' } : build;
    return this.prisma.build.create({ data }).catch((error: unknown) => {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003') return null;
      throw error;
    });
  }

  /**
   * Everything the planner decides on, in one round trip: a one-URL change waits for planning,
   * and each query more is a wait more on a busy machine.
   */
  async planning(siteId: string): Promise<BuildPlanning> {
    const rows = await this.prisma.$queryRaw<
      { closed: boolean; published: boolean; legacy: boolean; shards: [string, boolean][] | null }[]
    >`
      SELECT (t.suspended_at IS NOT NULL) AS closed,
             (m.site_id IS NOT NULL) AS published,
             coalesce(EXISTS (SELECT 1 FROM jsonb_object_keys(m.files) AS path
                               WHERE path LIKE ${`${LEGACY_SHARD_FOLDER}%`}), false) AS legacy,
             (SELECT json_agg(json_build_array(sh.id::text, sh.dirty) ORDER BY sh.id)
                FROM shards sh WHERE sh.site_id = s.id) AS shards
        FROM sites s JOIN tenants t ON t.id = s.tenant_id
        LEFT JOIN manifests m ON m.site_id = s.id
       WHERE s.id = ${siteId}::uuid`;
    const row = rows[0];
    if (!row) return { closed: true, published: false, legacy: false, shards: [] };
    return {
      closed: row.closed,
      published: row.published,
      legacy: row.legacy,
      shards: (row.shards ?? []).map(([id, dirty]) => ({ id: BigInt(id), dirty })),
    };
  }

  findById(buildId: string): Promise<Build | null> {
    return this.prisma.build.findUnique({ where: { id: buildId } });
  }

  /** The tenant's build with this id (a uuid), whichever its site, or null. */
  findForTenant(tenantId: string, buildId: string): Promise<Build | null> {
    return this.prisma.build.findFirst({ where: { id: buildId, site: { tenantId } } });
  }

  /** The site's build with this id (a uuid), or null. */
  findForSite(siteId: string, buildId: string): Promise<Build | null> {
    return this.prisma.build.findFirst({ where: { id: buildId, siteId } });
  }

  /** The site's builds newest first, before the (createdAt, id) key `before`, at most `limit`. */
  listForSite(siteId: string, page: { before: readonly [Date, string] | undefined; limit: number }): Promise<Build[]> {
    const { before } = page;
    return this.prisma.build.findMany({
      where: {
        siteId,
        ...(before ? { OR: [{ createdAt: { lt: before[0] } }, { createdAt: before[0], id: { lt: before[1] } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: page.limit,
    });
  }

  async markRunning(build: Build): Promise<void> {
    await this.prisma.build.update({
      where: { id: build.id },
      data: { status: 'running', startedAt: build.startedAt ?? new Date() },
    });
  }

  /** Marks a build failed unless it already finished; false if it had. */
  async markFailed(buildId: string, error: string): Promise<boolean> {
    const { count } = await this.prisma.build.updateMany({
      where: { id: buildId, status: { in: ['queued', 'running'] } },
      data: { status: 'failed', error, finishedAt: new Date() },
    });
    return count > 0;
  }

  /** Builds queued or running since before `before`: candidates for the reconciler. */
  findStale(before: Date): Promise<Build[]> {
    return this.prisma.build.findMany({
      where: {
        status: { in: ['queued', 'running'] },
        OR: [{ startedAt: { lt: before } }, { startedAt: null, createdAt: { lt: before } }],
      },
    });
  }

  async loadForPublish(buildId: string): Promise<BuildToPublish | null> {
    const row = await this.prisma.build.findUnique({ where: { id: buildId }, include: { site: true, renders: true } });
    if (!row) return null;
    const { site, renders, ...build } = row;
    return {
      build,
      site,
      renders: renders.map((render) => ({
        shardId: render.shardId,
        changeSeq: render.changeSeq,
        files: renderedFilesSchema.parse(render.files),
        timings: render.timings === null ? null : stageTimingsSchema.parse(render.timings),
      })),
    };
  }

  async hasRender(buildId: string, shardId: bigint): Promise<boolean> {
    return (
      (await this.prisma.shardRender.findUnique({
        where: { buildId_shardId: { buildId, shardId } },
        select: { shardId: true },
      })) !== null
    );
  }

  /**
   * Records a shard's render once (a retried render job leaves the first): one INSERT … ON
   * CONFLICT DO NOTHING, one round trip on the path of every change.
   */
  async saveRender(render: ShardRenderRecord): Promise<void> {
    const files = JSON.stringify(renderedFilesSchema.parse(render.files));
    const timings = JSON.stringify(stageTimingsSchema.parse(render.timings));
    const slices = render.slices ? JSON.stringify(renderSlicesSchema.parse(render.slices)) : null;
    await this.prisma.$executeRaw`
      INSERT INTO shard_renders (build_id, shard_id, change_seq, files, url_count, timings, slices)
      VALUES (${render.buildId}::uuid, ${render.shardId}, ${render.changeSeq}, ${files}::jsonb, ${render.urlCount},
              ${timings}::jsonb, ${slices}::jsonb)
      ON CONFLICT (build_id, shard_id) DO NOTHING`;
  }

  /**
   * The slices of the shard's latest sliced render (any build's: a splice needs the state its
   * file was made from, published or not), or null.
   */
  async lastSlices(shardId: bigint): Promise<RenderSlices | null> {
    const row = await this.prisma.shardRender.findFirst({
      where: { shardId, slices: { not: Prisma.DbNull } },
      orderBy: { createdAt: 'desc' },
      select: { slices: true },
    });
    return row?.slices ? renderSlicesSchema.parse(row.slices) : null;
  }

  /** Deletes shard renders older than `before` (their builds are long published or failed). */
  async deleteRendersBefore(before: Date): Promise<number> {
    return (await this.prisma.shardRender.deleteMany({ where: { createdAt: { lt: before } } })).count;
  }
}
