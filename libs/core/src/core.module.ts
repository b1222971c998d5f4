// The wiring the api and the worker share: config, the database and Redis clients, every
// repository, the producers both use, URL ingest and the "a site changed" announcement. Each app
// imports it once (it is global) and adds its own feature providers on top.
import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { AppConfig } from '@sitemaps/config';
import {
  createPgPool,
  createPrismaClient,
  repositoryProviders,
  WebhookRepository,
  type PrismaClient,
} from '@sitemaps/data';
import { UrlIngestService } from '@sitemaps/ingest';
import {
  BuildProducer,
  createQueue,
  createRedisConnection,
  QUEUE,
  WebhookProducer,
  type RedisConnection,
} from '@sitemaps/jobs';
import { PlatformMetrics, ROOT_LOGGER } from '@sitemaps/observability';
import { announceManifestChange, manifestChannel } from '@sitemaps/serving';
import {
  ANNOUNCE_SITE_CHANGE,
  BUILD_PRODUCER,
  CONFIG,
  MAINTENANCE_QUEUE,
  PG_POOL,
  PRISMA,
  REDIS,
  REPOSITORIES,
  URL_INGEST,
  WEBHOOK_PRODUCER,
  type AnnounceSiteChange,
} from './core.tokens';

export interface CoreOptions {
  config: AppConfig;
  /** Names the pool in metrics and picks the Redis connection's settings. */
  role: 'api' | 'worker';
  logger: Logger;
  metrics: PlatformMetrics;
}

/**
 * Closes what CoreModule made. Global modules shut down last, so every feature module has stopped
 * its workers and closed its own queues by then.
 */
class CoreClients implements OnApplicationShutdown {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
    @Inject(WEBHOOK_PRODUCER) private readonly webhooks: WebhookProducer,
    @Inject(MAINTENANCE_QUEUE) private readonly maintenance: Queue,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.builds.close(), this.webhooks.close(), this.maintenance.close()]);
    await this.prisma.$disconnect();
    await this.pool.end();
    this.redis.disconnect();
  }
}

@Module({})
export class CoreModule {
  static forRoot({ config, role, logger, metrics }: CoreOptions): DynamicModule {
    const repositories = repositoryProviders({ prisma: PRISMA, pool: PG_POOL, all: REPOSITORIES });
    const providers = [
      { provide: CONFIG, useValue: config },
      { provide: ROOT_LOGGER, useValue: logger },
      { provide: PlatformMetrics, useValue: metrics },
      { provide: PRISMA, useFactory: () => createPrismaClient(config.databaseUrl) },
      {
        provide: PG_POOL,
        useFactory: () => {
          // The worker renders shards: its COPY reads the socket's buffer in place.
          const pool = createPgPool(config.databaseUrl, { copyInPlace: role === 'worker' });
          metrics.observePool(role, pool);
          return pool;
        },
      },
      { provide: REDIS, useFactory: () => createRedisConnection(config, role === 'worker' ? 'worker' : 'producer') },
      ...repositories,
      {
        provide: BUILD_PRODUCER,
        inject: [REDIS],
        useFactory: (redis: RedisConnection) =>
          new BuildProducer(BuildProducer.queue(redis, config.queuePrefix), redis, config.build),
      },
      {
        provide: WEBHOOK_PRODUCER,
        inject: [REDIS, WebhookRepository],
        useFactory: (redis: RedisConnection, webhooks: WebhookRepository) =>
          new WebhookProducer(WebhookProducer.queue(redis, config.queuePrefix, config.webhooks), webhooks),
      },
      {
        provide: MAINTENANCE_QUEUE,
        inject: [REDIS],
        useFactory: (redis: RedisConnection) => createQueue(QUEUE.maintenance, redis, config.queuePrefix),
      },
      {
        provide: URL_INGEST,
        inject: [PG_POOL, BUILD_PRODUCER],
        useFactory: (pool: Pool, builds: BuildProducer) =>
          new UrlIngestService(pool, (siteId) => builds.afterChange(siteId)),
      },
      {
        // On the primary's position: public servers reading a replica switch once it has replayed it.
        provide: ANNOUNCE_SITE_CHANGE,
        inject: [REDIS, PG_POOL],
        useFactory:
          (redis: RedisConnection, pool: Pool): AnnounceSiteChange =>
          (siteId) =>
            announceManifestChange({ redis, channel: manifestChannel(config.queuePrefix) }, pool, siteId),
      },
      CoreClients,
    ];
    return {
      module: CoreModule,
      global: true,
      providers,
      exports: providers.filter((provider) => provider !== CoreClients),
    };
  }
}
