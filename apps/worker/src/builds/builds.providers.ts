// What worker.module adds for builds: planning, rendering and publishing a site's files, the
// reconciler that resumes interrupted builds, and what follows a publish (IndexNow, the webhook).
import { Inject, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { FlowProducer } from 'bullmq';
import type { Pool } from 'pg';
import type { AppConfig } from '@sitemaps/config';
import {
  ANNOUNCE_SITE_CHANGE,
  BUILD_PRODUCER,
  CONFIG,
  PG_POOL,
  PRISMA,
  REDIS,
  REPOSITORIES,
  WEBHOOK_PRODUCER,
  type AnnounceSiteChange,
} from '@sitemaps/core';
import { BuildRepository, ShardRepository, type PrismaClient, type Repositories } from '@sitemaps/data';
import { buildFinishedEvent } from '@sitemaps/domain';
import { createQueue, QUEUE, type BuildProducer, type RedisConnection, type WebhookProducer } from '@sitemaps/jobs';
import { jobTelemetry, PlatformMetrics } from '@sitemaps/observability';
import { createBlobStore, type BlobStore } from '@sitemaps/storage';
import { IndexNowDrainer } from '../indexnow/indexnow.drainer';
import { AFTER_PUBLISH, BLOB_STORE, FLOW_PRODUCER, RECONCILED_QUEUES, type AfterPublish } from '../worker.tokens';
import { BuildFailures } from './build-failures';
import { BuildPlanner } from './build-planner';
import { BuildPublisher } from './build.publisher';
import { BuildProcessors } from './build.processors';
import { BuildReconciler, type ReconciledQueues } from './build.reconciler';
import { LayoutMigration } from './layout-migration';
import { ShardRenderer } from './shard.renderer';

/** Closes the queues made here, after the processors have stopped taking jobs. */
class BuildClients implements OnApplicationShutdown {
  constructor(
    @Inject(FLOW_PRODUCER) private readonly flows: FlowProducer,
    @Inject(RECONCILED_QUEUES) private readonly reconciled: ReconciledQueues,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.flows.close(), this.reconciled.build.close(), this.reconciled.publish.close()]);
  }
}

export const BUILD_PROVIDERS: Provider[] = [
  {
    provide: BLOB_STORE,
    inject: [CONFIG, PRISMA, PG_POOL],
    useFactory: (config: AppConfig, prisma: PrismaClient, pool: Pool) => createBlobStore(config.storage, prisma, pool),
  },
  {
    provide: FLOW_PRODUCER,
    inject: [CONFIG, REDIS],
    useFactory: (config: AppConfig, redis: RedisConnection) =>
      new FlowProducer({ connection: redis, prefix: config.queuePrefix, ...jobTelemetry() }),
  },
  {
    provide: RECONCILED_QUEUES,
    inject: [CONFIG, REDIS],
    useFactory: (config: AppConfig, redis: RedisConnection): ReconciledQueues => ({
      build: createQueue(QUEUE.build, redis, config.queuePrefix),
      publish: createQueue(QUEUE.publish, redis, config.queuePrefix),
    }),
  },
  {
    provide: BuildPlanner,
    inject: [BuildRepository, FLOW_PRODUCER, BUILD_PRODUCER],
    useFactory: (builds: BuildRepository, flows: FlowProducer, producer: BuildProducer) =>
      new BuildPlanner({ builds }, flows, producer),
  },
  {
    provide: ShardRenderer,
    inject: [BuildRepository, ShardRepository, BLOB_STORE],
    useFactory: (builds: BuildRepository, shards: ShardRepository, store: BlobStore) =>
      new ShardRenderer(builds, shards, store),
  },
  {
    provide: AFTER_PUBLISH,
    inject: [IndexNowDrainer, WEBHOOK_PRODUCER],
    useFactory:
      (indexNow: IndexNowDrainer, webhooks: WebhookProducer): AfterPublish =>
      async (siteId, buildId) => {
        await indexNow.enqueue(siteId, buildId);
        // Re-emitted by a retried publish: the event id is the build's, so it is delivered once.
        await webhooks.emit({ siteId }, buildFinishedEvent({ siteId, buildId, status: 'published' }));
      },
  },
  {
    provide: BuildPublisher,
    inject: [REPOSITORIES, BLOB_STORE, ANNOUNCE_SITE_CHANGE, AFTER_PUBLISH, PlatformMetrics],
    useFactory: (
      { builds, manifests, shards, urls }: Repositories,
      store: BlobStore,
      announce: AnnounceSiteChange,
      afterPublish: AfterPublish,
      metrics: PlatformMetrics,
    ) =>
      new BuildPublisher({
        builds,
        manifests,
        shards,
        urls,
        store,
        announce,
        afterPublish,
        published: (build) => metrics.recordPublish(build),
      }),
  },
  BuildFailures,
  BuildProcessors,
  BuildReconciler,
  LayoutMigration,
  BuildClients,
];
