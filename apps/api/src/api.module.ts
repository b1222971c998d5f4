import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import type { AppConfig } from '@sitemaps/config';
import { createPgPool, createPrismaClient, type PrismaClient } from '@sitemaps/data';
import { UrlIngestService } from '@sitemaps/ingest';
import { BuildProducer, createRedisConnection } from '@sitemaps/jobs';
import { BUILD_PRODUCER, CONFIG, PG_POOL, PRISMA, REDIS } from './api.tokens';
import { ApiKeyGuard } from './auth/api-key.guard';
import { ApiKeysService } from './auth/api-keys.service';
import { BuildsController } from './builds/builds.controller';
import { HttpErrorFilter } from './errors/http-error.filter';
import { HealthController } from './health.controller';
import { SitesController } from './sites/sites.controller';
import { SitesService } from './sites/sites.service';
import { TenantsController } from './tenants/tenants.controller';
import { URL_INGEST, UrlsController } from './urls/urls.controller';

const BUILD_QUEUE = Symbol('BUILD_QUEUE');

class ApiClients implements OnApplicationShutdown {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(BUILD_QUEUE) private readonly queue: Queue,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.prisma.$disconnect();
    await this.pool.end();
    this.redis.disconnect();
  }
}

@Module({})
export class ApiModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiModule,
      controllers: [HealthController, TenantsController, SitesController, UrlsController, BuildsController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: PRISMA, useFactory: () => createPrismaClient(config.databaseUrl) },
        { provide: PG_POOL, useFactory: () => createPgPool(config.databaseUrl) },
        { provide: REDIS, useFactory: () => createRedisConnection(config.redisUrl, 'producer') },
        { provide: BUILD_QUEUE, inject: [REDIS], useFactory: (redis: Redis) => BuildProducer.queue(redis, config.queuePrefix) },
        {
          provide: BUILD_PRODUCER,
          inject: [BUILD_QUEUE, REDIS],
          useFactory: (queue: Queue, redis: Redis) => new BuildProducer(queue, redis, config.build),
        },
        {
          provide: URL_INGEST,
          inject: [PG_POOL, BUILD_PRODUCER],
          useFactory: (pool: Pool, builds: BuildProducer) => new UrlIngestService(pool, (siteId) => builds.afterChange(siteId)),
        },
        ApiKeysService,
        SitesService,
        ApiClients,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
    };
  }
}
