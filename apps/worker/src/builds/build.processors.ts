// Wires the build queues to the planner, renderer and publisher; a build whose job fails for
// good is marked failed so the API reports it.
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Job } from 'bullmq';
import { planBuildPayload, publishBuildPayload, QUEUE, renderShardPayload } from '@sitemaps/jobs';
import { PlatformMetrics } from '@sitemaps/observability';
import { JobWorkers } from '../job-workers';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG } from '@sitemaps/core';
import { BuildFailures } from './build-failures';
import { BuildPlanner } from './build-planner';
import { BuildPublisher } from './build.publisher';
import { ShardRenderer } from './shard.renderer';

@Injectable()
export class BuildProcessors implements OnModuleInit {
  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly workers: JobWorkers,
    private readonly planner: BuildPlanner,
    private readonly renderer: ShardRenderer,
    private readonly publisher: BuildPublisher,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    private readonly failures: BuildFailures,
  ) {}

  onModuleInit(): void {
    const onFinalFailure = (job: Job, error: Error) => this.failures.markFailed(job, error);
    this.workers.serve(QUEUE.build, planBuildPayload, (data) => this.timed('plan', () => this.planner.plan(data)), {
      onFinalFailure,
    });
    this.workers.serve(
      QUEUE.shard,
      renderShardPayload,
      async (data) => {
        const timings = await this.renderer.render(data);
        if (timings) this.metrics.recordStages(timings);
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
}
