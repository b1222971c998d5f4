import { Module, type DynamicModule, Inject, type OnApplicationShutdown } from '@nestjs/common';
import { FlowProducer, type Queue } from 'bullmq';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import type { Pool } from 'pg';
import type { AppConfig } from '@sitemaps/config';
import {
  BuildRepository,
  createPgPool,
  IdempotencyKeyRepository,
  PersonRepository,
  IndexNowRepository,
  createPrismaClient,
  ManifestRepository,
  ShardRepository,
  SiteOwnershipRepository,
  TenantRepository,
  UrlRepository,
  WebhookRepository,
  CrawlRepository,
  type PrismaClient,
} from '@sitemaps/data';
import { buildFinishedEvent, siteVerificationEvent, type SiteEventsPort } from '@sitemaps/domain';
import {
  BuildProducer,
  createQueue,
  createRedisConnection,
  QUEUE,
  WebhookProducer,
  type RedisConnection,
} from '@sitemaps/jobs';
import { announceManifestChange, createBlobStore, manifestChannel, type BlobStore } from '@sitemaps/storage';
import { BuildFailures } from './builds/build-failures';
import { BuildPlanner } from './builds/build-planner';
import { BuildProcessors } from './builds/build.processors';
import { BuildReconciler, type ReconciledQueues } from './builds/build-reconciler';
import { LayoutMigration } from './builds/layout-migration';
import { DATA_PROVIDERS } from './data.providers';
import { JobWorkers } from './job-workers';
import { WorkerHealth } from './http/worker-health';
import { WorkerHttpServer } from './http/worker-http.server';
import { WorkerMetrics } from './http/worker-metrics';
import { GarbageCollector } from './maintenance/garbage-collector';
import { MaintenanceProcessors } from './maintenance/maintenance.processors';
import { ShardUpkeep } from './maintenance/shard-upkeep';
import { CrawlEvents } from './maintenance/crawl-events';
import { IMPORT_PROVIDERS } from './imports/import.providers';
import { ShardCompactor } from './maintenance/shard-compactor';
import { BuildPublisher } from './builds/build-publisher';
import { ShardRenderer } from './builds/shard-renderer';
import { IndexNowDrainer } from './indexnow/indexnow-drainer';
import { IndexNowSubmitter } from './indexnow/indexnow-submitter';
import { IndexNowProcessors } from './indexnow/indexnow.processors';
import {
  AFTER_PUBLISH,
  ANNOUNCE_MANIFEST,
  BLOB_STORE,
  BUILD_PRODUCER,
  CONFIG,
  FLOW_PRODUCER,
  MAINTENANCE_QUEUE,
  PG_POOL,
  PRISMA,
  RECONCILED_QUEUES,
  REDIS,
  SITE_EVENTS,
  URL_INGEST,
  WEBHOOK_PRODUCER,
  WEBHOOK_REPOSITORY,
  type AfterPublish,
  type AnnounceManifest,
} from './worker.tokens';
import { WebhookProcessors } from './webhooks/webhook.processors';
import { WebhookSender } from './webhooks/webhook-sender';
import { HostnameProofs } from './verification/hostname-proofs';
import { SiteVerifier } from './verification/site-verifier';
import { VerificationProcessors } from './verification/verification.processors';
import { UrlIngestService } from '@sitemaps/ingest';
import { jobTelemetry, PlatformMetrics, ROOT_LOGGER } from '@sitemaps/observability';

/** Closes the clients this module created, after the processors have stopped taking jobs. */
class WorkerClients implements OnApplicationShutdown {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(FLOW_PRODUCER) private readonly flows: FlowProducer,
    @Inject(WEBHOOK_PRODUCER) private readonly webhooks: WebhookProducer,
    @Inject(MAINTENANCE_QUEUE) private readonly maintenance: Queue,
    @Inject(RECONCILED_QUEUES) private readonly reconciled: ReconciledQueues,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.flows.close();
    await this.webhooks.close();
    await this.maintenance.close();
    await Promise.all([this.reconciled.build.close(), this.reconciled.publish.close()]);
    await this.prisma.$disconnect();
    await this.pool.end();
    this.redis.disconnect();
  }
}

@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, observability: { logger: Logger; metrics: PlatformMetrics }): DynamicModule {
    const { logger, metrics } = observability;
    return {
      module: WorkerModule,
      // Nest's and the processors' lines through the app's pino logger (no HTTP: no middleware).
      imports: [LoggerModule.forRoot({ pinoHttp: { logger } })],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: ROOT_LOGGER, useValue: logger },
        { provide: PlatformMetrics, useValue: metrics },
        { provide: PRISMA, useFactory: () => createPrismaClient(config.databaseUrl) },
        {
          provide: PG_POOL,
          useFactory: () => {
            const pool = createPgPool(config.databaseUrl);
            metrics.observePool('worker', pool);
            return pool;
          },
        },
        { provide: REDIS, useFactory: () => createRedisConnection(config, 'worker') },
        {
          provide: BLOB_STORE,
          inject: [PRISMA, PG_POOL],
          useFactory: (prisma: PrismaClient, pool: Pool) => createBlobStore(config.storage, prisma, pool),
        },
        {
          provide: FLOW_PRODUCER,
          inject: [REDIS],
          useFactory: (redis: RedisConnection) =>
            new FlowProducer({ connection: redis, prefix: config.queuePrefix, ...jobTelemetry() }),
        },
        {
          provide: BUILD_PRODUCER,
          inject: [REDIS],
          useFactory: (redis: RedisConnection) =>
            new BuildProducer(BuildProducer.queue(redis, config.queuePrefix), redis, config.build),
        },
        {
          provide: URL_INGEST,
          inject: [PG_POOL, BUILD_PRODUCER],
          useFactory: (pool: Pool, builds: BuildProducer) =>
            new UrlIngestService(pool, (siteId) => builds.afterChange(siteId)),
        },
        {
          provide: ShardCompactor,
          inject: [ShardRepository],
          useFactory: (shards: ShardRepository) => new ShardCompactor(shards),
        },
        {
          provide: RECONCILED_QUEUES,
          inject: [REDIS],
          useFactory: (redis: RedisConnection): ReconciledQueues => ({
            build: createQueue(QUEUE.build, redis, config.queuePrefix),
            publish: createQueue(QUEUE.publish, redis, config.queuePrefix),
          }),
        },
        {
          provide: MAINTENANCE_QUEUE,
          inject: [REDIS],
          useFactory: (redis: RedisConnection) => createQueue(QUEUE.maintenance, redis, config.queuePrefix),
        },
        {
          provide: GarbageCollector,
          inject: [BLOB_STORE, BuildRepository, IdempotencyKeyRepository, PersonRepository],
          useFactory: (
            store: BlobStore,
            builds: BuildRepository,
            idempotencyKeys: IdempotencyKeyRepository,
            people: PersonRepository,
          ) =>
            new GarbageCollector({
              store,
              builds,
              idempotencyKeys,
              people,
              graceMs: config.storage.graceMs,
              idempotencyKeyTtlSeconds: config.idempotencyKeyTtlSeconds,
            }),
        },
        {
          provide: ShardUpkeep,
          inject: [URL_INGEST, ShardRepository, ShardCompactor, BUILD_PRODUCER],
          useFactory: (
            ingest: UrlIngestService,
            shards: ShardRepository,
            compactor: ShardCompactor,
            builds: BuildProducer,
          ) => new ShardUpkeep({ ingest, shards, compactor, builds }),
        },
        {
          provide: CrawlEvents,
          inject: [CrawlRepository, WEBHOOK_PRODUCER],
          useFactory: (crawls: CrawlRepository, webhooks: WebhookProducer) =>
            new CrawlEvents({ crawls, webhooks, retentionDays: config.crawls.retentionDays }),
        },

        ...DATA_PROVIDERS,
        {
          provide: BuildPlanner,
          inject: [
            BuildRepository,
            ManifestRepository,
            ShardRepository,
            TenantRepository,
            FLOW_PRODUCER,
            BUILD_PRODUCER,
          ],
          useFactory: (
            builds: BuildRepository,
            manifests: ManifestRepository,
            shards: ShardRepository,
            tenants: TenantRepository,
            f: FlowProducer,
            b: BuildProducer,
          ) => new BuildPlanner({ builds, manifests, shards }, f, b, (siteId) => tenants.siteSuspended(siteId)),
        },
        {
          provide: ShardRenderer,
          inject: [BuildRepository, ShardRepository, BLOB_STORE],
          useFactory: (builds: BuildRepository, shards: ShardRepository, s: BlobStore) =>
            new ShardRenderer(builds, shards, s),
        },
        {
          provide: IndexNowDrainer,
          inject: [IndexNowRepository, REDIS],
          useFactory: (indexNow: IndexNowRepository, redis: RedisConnection) =>
            new IndexNowDrainer(indexNow, IndexNowDrainer.queue(redis, config.queuePrefix), config.indexNow.endpoints),
        },
        {
          provide: IndexNowSubmitter,
          inject: [IndexNowRepository],
          useFactory: (indexNow: IndexNowRepository) => new IndexNowSubmitter(indexNow),
        },
        { provide: WEBHOOK_REPOSITORY, useExisting: WebhookRepository },
        {
          provide: WEBHOOK_PRODUCER,
          inject: [REDIS, WEBHOOK_REPOSITORY],
          useFactory: (redis: RedisConnection, webhooks: WebhookRepository) =>
            new WebhookProducer(WebhookProducer.queue(redis, config.queuePrefix, config.webhooks), webhooks),
        },
        { provide: WebhookSender, useFactory: () => new WebhookSender(config.webhooks) },
        {
          provide: ANNOUNCE_MANIFEST,
          inject: [REDIS, PG_POOL],
          useFactory:
            (redis: RedisConnection, pool: Pool): AnnounceManifest =>
            (siteId) =>
              announceManifestChange({ redis, channel: manifestChannel(config.queuePrefix) }, pool, siteId),
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
          inject: [
            BuildRepository,
            ManifestRepository,
            ShardRepository,
            UrlRepository,
            BLOB_STORE,
            ANNOUNCE_MANIFEST,
            AFTER_PUBLISH,
          ],
          useFactory: (
            builds: BuildRepository,
            manifests: ManifestRepository,
            shards: ShardRepository,
            urls: UrlRepository,
            store: BlobStore,
            announce: AnnounceManifest,
            afterPublish: AfterPublish,
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
        JobWorkers,
        BuildFailures,
        BuildProcessors,
        BuildReconciler,
        LayoutMigration,
        MaintenanceProcessors,
        ...IMPORT_PROVIDERS,
        IndexNowProcessors,
        WebhookProcessors,
        // site.verified / site.verification_lost, delivered to the tenant's webhook endpoints.
        {
          provide: SITE_EVENTS,
          inject: [WEBHOOK_PRODUCER],
          useFactory: (webhooks: WebhookProducer): SiteEventsPort => ({
            publish: async (event) => {
              await webhooks.emit(
                { siteId: event.siteId },
                siteVerificationEvent(event.type, event, event.at, event.reason),
              );
            },
          }),
        },
        { provide: HostnameProofs, useFactory: () => new HostnameProofs(config.verification) },
        {
          provide: SiteVerifier,
          inject: [SiteOwnershipRepository, HostnameProofs, ANNOUNCE_MANIFEST, SITE_EVENTS],
          useFactory: (
            ownership: SiteOwnershipRepository,
            proofs: HostnameProofs,
            announce: AnnounceManifest,
            events: SiteEventsPort,
          ) => new SiteVerifier(ownership, proofs, config.verification, announce, events),
        },
        VerificationProcessors,
        WorkerClients,
        WorkerHttpServer,
        WorkerHealth,
        WorkerMetrics,
      ],
    };
  }
}
