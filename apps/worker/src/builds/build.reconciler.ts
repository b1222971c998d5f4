// Postgres is the record of builds and schedules; Redis only carries the work. When Redis loses
// data (a restart without persistence, a failover), queued jobs and job schedulers vanish. The
// reconciler rebuilds them from Postgres at start, on every Redis reconnect and periodically,
// so a build is completed or re-queued, never silently dropped.
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { AppConfig } from '@sitemaps/config';
import { BuildRepository, SiteRepository } from '@sitemaps/data';
import { jobId, QUEUE, type BuildProducer, type RedisConnection } from '@sitemaps/jobs';
import { JobWorkers } from '../job-workers';
import { RECONCILED_QUEUES } from '../worker.tokens';
import { BUILD_PRODUCER, CONFIG, REDIS } from '@sitemaps/core';

/** The queues whose jobs the reconciler looks up (closed with the module's clients). */
export interface ReconciledQueues {
  build: Queue;
  publish: Queue;
}

@Injectable()
export class BuildReconciler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('reconciler');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly onReady = () => void this.reconcile();

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly sites: SiteRepository,
    private readonly buildRepository: BuildRepository,
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
    @Inject(RECONCILED_QUEUES) private readonly queues: ReconciledQueues,
    private readonly workers: JobWorkers,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.workers.serves(QUEUE.build)) return;
    await this.reconcile();
    this.redis.on('ready', this.onReady);
    this.timer = setInterval(
      this.onReady,
      Math.min(60_000, Math.max(1_000, Math.floor(this.config.build.staleMs / 2))),
    );
    this.timer.unref();
  }

  /** One pass at a time; a failed pass (Redis still down) is logged and retried by the next. */
  reconcile(): Promise<void> {
    this.running ??= this.pass()
      .catch((error: Error) => this.logger.warn(`reconcile failed, will retry: ${error.message}`))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    const scheduled = await this.sites.withRebuildSchedule();
    for (const site of scheduled) await this.builds.scheduleRebuilds(site.id, site.rebuildCron);

    const staleBefore = new Date(Date.now() - this.config.build.staleMs);
    const stale = await this.buildRepository.findStale(staleBefore);
    const { build: buildQueue, publish: publishQueue } = this.queues;
    for (const build of stale) {
      const [plan, publish] = await Promise.all([
        buildQueue.getJob(jobId.planBuild(build.id)),
        publishQueue.getJob(jobId.publishBuild(build.id)),
      ]);
      if (plan || publish) continue; // still in Redis: BullMQ's retries and stalled-job checks own it
      this.logger.warn(`build ${build.id} has no job left in Redis: re-queued`);
      await this.builds.enqueueBuild({
        v: 1,
        siteId: build.siteId,
        buildId: build.id,
        full: build.full,
        trigger: build.trigger as 'api' | 'schedule' | 'change',
      });
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.redis.off('ready', this.onReady);
    await this.running;
  }
}
