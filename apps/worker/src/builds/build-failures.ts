// A build whose job fails for good: marked failed so the API reports it, counted in the build
// duration metric, and announced to the tenant's webhooks as build.failed.
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { BuildRepository } from '@sitemaps/data';
import { buildFinishedEvent } from '@sitemaps/domain';
import type { WebhookProducer } from '@sitemaps/jobs';
import { PlatformMetrics } from '@sitemaps/observability';
import { WEBHOOK_PRODUCER } from '@sitemaps/core';

@Injectable()
export class BuildFailures {
  private readonly logger = new Logger('builds');

  constructor(
    private readonly builds: BuildRepository,
    @Inject(WEBHOOK_PRODUCER) private readonly webhooks: WebhookProducer,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
  ) {}

  /** For any build queue's job (plan, render, publish): its payload names the build and site. */
  async markFailed(job: Job, error: Error): Promise<void> {
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
