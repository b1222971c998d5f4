// First step of a build: decide which shards to render and hand the work to a BullMQ flow
// (one render child per shard, the publish parent runs when all children are done).
import type { FlowProducer } from 'bullmq';
import type { BuildRepository, ManifestRepository, ShardRepository } from '@sitemaps/data';
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
    private readonly repositories: { builds: BuildRepository; manifests: ManifestRepository; shards: ShardRepository },
    private readonly flows: FlowProducer,
    private readonly builds: BuildProducer,
    /** Suspended tenants get no builds (see TenantRepository.siteSuspended). */
    private readonly suspended: (siteId: string) => Promise<boolean> = async () => false,
  ) {}

  async plan(payload: PlanBuildPayload): Promise<{ buildId: string; shards: number }> {
    if (payload.trigger === 'change') await this.builds.clearPending(payload.siteId);
    if (await this.suspended(payload.siteId)) {
      // Queued before the suspension (or a schedule firing during it): it ends here, said so.
      if (payload.buildId)
        await this.repositories.builds.markFailed(payload.buildId, 'TENANT_SUSPENDED: the account is suspended');
      return { buildId: payload.buildId ?? '', shards: 0 };
    }
    const { builds, manifests, shards: shardRepository } = this.repositories;
    // A change build queued just before its site was deleted: no site, no build (and no retries).
    const build = payload.buildId
      ? await builds.findById(payload.buildId)
      : await builds.create({ siteId: payload.siteId, full: payload.full, trigger: payload.trigger });
    // Deleted with its site, or already through: nothing to do (a retried job lands here).
    if (!build || build.status === 'published' || build.status === 'failed')
      return { buildId: build?.id ?? '', shards: 0 };

    // A manifest that still lists shards in the legacy folder moves them all in one build.
    const layout = await manifests.layout(build.siteId);
    const shards = await shardRepository.ids(build.siteId, {
      dirtyOnly: !build.full && layout.published && !layout.legacy,
    });
    await builds.markRunning(build);

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
