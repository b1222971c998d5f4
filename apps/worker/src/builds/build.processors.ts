// Wires the build queues to the planner, renderer and publisher; a build whose job fails for
// good is marked failed so the API reports it.
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Job } from 'bullmq';
import { BuildRepository } from '@sitemaps/data';
import { buildFinishedEvent } from '@sitemaps/domain';
import { planBuildPayload, publishBuildPayload, QUEUE, renderShardPayload, type WebhookProducer } from '@sitemaps/jobs';
import { PlatformMetrics } from '@sitemaps/observability';
import { JobWorkers } from '../job-workers';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG, WEBHOOK_PRODUCER } from '../worker.tokens';
import { BuildPlanner } from './build-planner';
import { BuildPublisher } from './build-publisher';
import { ShardRenderer } from './shard-renderer';

@Injectable()
export class BuildProcessors implements OnModuleInit {
  private readonly logger = new Logger('builds');

  constructor(
    private readonly builds: BuildRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly workers: JobWorkers,
    private readonly planner: BuildPlanner,
    private readonly renderer: ShardRenderer,
    private readonly publisher: BuildPublisher,
    @Inject(WEBHOOK_PRODUCER) private readonly webhooks: WebhookProducer,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
  ) {}

  onModuleInit(): void {
    const onFinalFailure = (job: Job, error: Error) => this.markFailed(job, error);
    this.workers.serve(QUEUE.build, planBuildPayload, (data) => this.timed('plan', () => this.planner.plan(data)), {
      onFinalFailure,
    });
    this.workers.serve(
      QUEUE.shard,
      renderShardPayload,
      async (data) => {
        const timings = await this.renderer.render(data);
        if (timings) this.metrics.recordStages(timings as unknown as Record<string, number>);
        return timings;
      },
      { onFinalFailure, concurrency: this.config.worker.shardConcurrency },
    );
    this.workers.serve(
      QUEUE.publish,
      publishBuildPayload,
      (data) => this.timed('publish', () => this.publisher.publish(data)),
      { onFinalFailure },
    );
  }

  private async timed<T>(stage: string, step: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await step();
    this.metrics.stageDuration.observe({ stage }, (performance.now() - started) / 1_000);
    return result;
  }

  private async markFailed(job: Job, error: Error): Promise<void> {
    const { buildId, siteId } = job.data as { buildId?: unknown; siteId?: unknown };
    if (typeof buildId !== 'string') return;
    const marked = await this.builds
      .markFailed(buildId, error.message)
      .catch((cause: Error) => this.logger.error(`could not mark build ${buildId} failed: ${cause.message}`));
    if (!marked) return;
    this.metrics.buildDuration.observe({ outcome: 'failed' }, (Date.now() - job.timestamp) / 1_000);
    if (typeof siteId !== 'string') return;
    await this.webhooks
      .emit({ siteId }, buildFinishedEvent({ siteId, buildId, status: 'failed', error: error.message }))
      .catch((cause: Error) => this.logger.error(`could not emit build.failed for build ${buildId}: ${cause.message}`));
  }
}
