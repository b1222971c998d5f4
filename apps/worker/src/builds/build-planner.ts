// First step of a build: decide which shards to render and hand the work to a BullMQ flow
// (one render child per shard, the publish parent runs when all children are done).
import type { FlowProducer } from 'bullmq';
import type { BuildRepository } from '@sitemaps/data';
import {
  DEFAULT_JOB_OPTIONS,
  JOB,
  jobId,
  QUEUE,
  type BuildProducer,
  type PlanBuildPayload,
  type PublishBuildPayload,
  type RenderShardPayload,
} from '@sitemaps/jobs';

export class BuildPlanner {
  constructor(
    private readonly repositories: { builds: BuildRepository },
    private readonly flows: FlowProducer,
    private readonly builds: BuildProducer,
  ) {}

  async plan(payload: PlanBuildPayload): Promise<{ buildId: string; shards: number }> {
    const { builds } = this.repositories;
    // What the plan decides on is read at once: a one-URL change waits for every round trip here.
    const [planning, existing] = await Promise.all([
      builds.planning(payload.siteId),
      payload.buildId ? builds.findById(payload.buildId) : null,
      payload.trigger === 'change' ? this.builds.clearPending(payload.siteId) : undefined,
    ]);
    if (planning.closed) {
      // Suspended tenants get no builds; one queued before the suspension (or a schedule firing
      // during it) ends here, said so. A site deleted meanwhile gets none either (and no retries).
      if (existing) await builds.markFailed(existing.id, 'TENANT_SUSPENDED: the account is suspended');
      return { buildId: payload.buildId ?? '', shards: 0 };
    }
    const build = payload.buildId
      ? existing
      : await builds.create({
          siteId: payload.siteId,
          full: payload.full,
          trigger: payload.trigger,
          startedAt: new Date(),
        });
    // Deleted with its site, or already through: nothing to do (a retried job lands here).
    if (!build || build.status === 'published' || build.status === 'failed')
      return { buildId: build?.id ?? '', shards: 0 };
    if (build.status !== 'running' || !build.startedAt) await builds.markRunning(build);

    // A manifest that still lists shards in the legacy folder moves them all in one build.
    const dirtyOnly = !build.full && planning.published && !planning.legacy;
    const shards = planning.shards.filter((shard) => !dirtyOnly || shard.dirty).map((shard) => shard.id);

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
        data: { ...base, shardId: String(shard) } satisfies RenderShardPayload,
        opts: { ...DEFAULT_JOB_OPTIONS, jobId: jobId.renderShard(build.id, String(shard)), failParentOnFailure: true },
      })),
    });
    return { buildId: build.id, shards: shards.length };
  }
}
