// First step of a build: decide which shards to render and hand the work to a BullMQ flow
// (one render child per shard, the publish parent runs when all children are done).
import type { FlowProducer } from 'bullmq';
import { Prisma, type PrismaClient } from '@sitemaps/data';
import { DEFAULT_JOB_OPTIONS, JOB, jobId, QUEUE, type BuildProducer, type PlanBuildPayload, type PublishBuildPayload, type RenderShardPayload } from '@sitemaps/jobs';

export class BuildPlanner {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly flows: FlowProducer,
    private readonly builds: BuildProducer,
  ) {}

  async plan(payload: PlanBuildPayload): Promise<{ buildId: string; shards: number }> {
    if (payload.trigger === 'change') await this.builds.clearPending(payload.siteId);
    const build = payload.buildId
      ? await this.prisma.build.findUnique({ where: { id: payload.buildId } })
      : await this.prisma.build.create({ data: { siteId: payload.siteId, full: payload.full, trigger: payload.trigger } }).catch(siteGone);
    // Deleted with its site, or already through: nothing to do (a retried job lands here).
    if (!build || build.status === 'published' || build.status === 'failed') return { buildId: build?.id ?? '', shards: 0 };

    const hasManifest = (await this.prisma.manifest.count({ where: { siteId: build.siteId } })) > 0;
    const shards = await this.prisma.shard.findMany({
      where: { siteId: build.siteId, ...(build.full || !hasManifest ? {} : { dirty: true }) },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    await this.prisma.build.update({ where: { id: build.id }, data: { status: 'running', startedAt: build.startedAt ?? new Date() } });

    const base = { v: 1 as const, siteId: build.siteId, buildId: build.id };
    // Flow jobs do not inherit a queue's default options: retries and retention are set here.
    await this.flows.add({
      name: JOB.publishBuild,
      queueName: QUEUE.publish,
      data: base satisfies PublishBuildPayload,
      opts: { ...DEFAULT_JOB_OPTIONS, jobId: jobId.publishBuild(build.id) },
      children: shards.map((shard) => ({
        name: JOB.renderShard,
        queueName: QUEUE.shard,
        data: { ...base, shardId: String(shard.id) } satisfies RenderShardPayload,
        opts: { ...DEFAULT_JOB_OPTIONS, jobId: jobId.renderShard(build.id, String(shard.id)), failParentOnFailure: true },
      })),
    });
    return { buildId: build.id, shards: shards.length };
  }
}

/** A change build queued just before its site was deleted: no site, no build (and no retries). */
function siteGone(error: unknown): null {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003') return null;
  throw error;
}
