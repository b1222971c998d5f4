import {
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleInit,
  type Provider,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { AppConfig } from '@sitemaps/config';
import type { Pool } from 'pg';
import {
  createPgPool,
  createPrismaClient,
  CrawlRepository,
  DATABASE_RETRY_AFTER_S,
  ManifestRepository,
  PrismaClient,
} from '@sitemaps/data';
import type { CrawlTally } from '@sitemaps/domain';
import { postgresCheck, Readiness, redisCheck } from '@sitemaps/health';
import { createRedisConnection, type RedisConnection } from '@sitemaps/jobs';
import { createBlobStore } from '@sitemaps/storage';
import { ManifestReader, manifestChannel, replayPosition } from '@sitemaps/serving';
import { PublicExceptionFilter } from './public.exception.filter';
import { PublicRoutes } from './public.routes';
import { PUBLIC_OPTIONS, PublicService, type PublicOptions } from './public.service';
import { PlatformMetrics } from '@sitemaps/observability';
import { CrawlFlusher, crawlerDns } from './crawl.flusher';

const MANIFEST_SUBSCRIBER = Symbol('MANIFEST_SUBSCRIBER');

const BLOB_POOL = Symbol('BLOB_POOL');

/** Closes the clients this module opened, when the app closes. */
@Injectable()
class PublicConnections implements OnApplicationShutdown {
  constructor(
    private readonly prisma: PrismaClient,
    @Inject(MANIFEST_SUBSCRIBER) private readonly subscriber: RedisConnection,
    @Inject(BLOB_POOL) private readonly pool: Pool,
    private readonly reader: ManifestReader,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.reader.close();
    this.subscriber.disconnect();
    await this.prisma.$disconnect();
    await this.pool.end();
  }
}

const CRAWL_FLUSHER = Symbol('CRAWL_FLUSHER');
const CRAWL_POOL = Symbol('CRAWL_POOL');

/** Writes the crawl counts every CRAWL_FLUSH_MS, and once more at shutdown, before its pool closes. */
@Injectable()
class CrawlFlushing implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(CRAWL_FLUSHER) private readonly flusher: CrawlFlusher,
    @Inject(CRAWL_POOL) private readonly pool: Pool,
  ) {}

  onModuleInit(): void {
    this.flusher.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flusher.stop();
    await this.pool.end();
  }
}

@Module({})
export class PublicModule {
  static forRoot(
    config: AppConfig,
    metrics: PlatformMetrics = new PlatformMetrics('public'),
    /** Fetches counted by the lane and Fastify (CRAWL_INSIGHT); none: not counted. */
    crawls?: CrawlTally,
  ): DynamicModule {
    const options: PublicOptions = {
      platformHost: config.public.baseUrl ? new URL(config.public.baseUrl).hostname.toLowerCase() : null,
      platformOrigin: config.public.baseUrl ? new URL(config.public.baseUrl).origin : null,
      blobBaseUrl: config.storage.publicBaseUrl ?? null,
    };
    // Everything here only reads: from the replica when there is one.
    const readUrl = config.databaseReadUrl ?? config.databaseUrl;
    return {
      module: PublicModule,
      providers: [
        { provide: PUBLIC_OPTIONS, useValue: options },
        { provide: PrismaClient, useFactory: () => createPrismaClient(readUrl) },
        // A connection of its own: a subscribed Redis connection can run nothing else.
        { provide: MANIFEST_SUBSCRIBER, useFactory: () => createRedisConnection(config, 'subscriber') },
        { provide: PlatformMetrics, useValue: metrics },
        {
          provide: BLOB_POOL,
          useFactory: () => {
            const pool = createPgPool(readUrl, { max: 4 });
            metrics.observePool('public-blobs', pool);
            return pool;
          },
        },
        {
          provide: ManifestReader,
          inject: [PrismaClient, MANIFEST_SUBSCRIBER, BLOB_POOL],
          useFactory: async (prisma: PrismaClient, subscriber: RedisConnection, pool: Pool) => {
            const logger = new Logger('manifests');
            const reader = new ManifestReader(
              new ManifestRepository(prisma),
              createBlobStore(config.storage, prisma, pool),
              {
                // Without a message, a cached manifest still refreshes well before GC may take its files.
                maxAgeMs: Math.min(60_000, Math.max(1_000, config.storage.graceMs / 2)),
                // On a replica, a publish is served once the replica has replayed it, never before.
                ...(config.databaseReadUrl ? { replayedLsn: replayPosition(pool) } : {}),
                // Through a Postgres outage, the last manifest read rather than a 503 (docs/operations.md).
                staleIfErrorMs: config.public.staleIfErrorMs,
                staleRetryMs: DATABASE_RETRY_AFTER_S * 1_000,
                onStaleChange: (change) =>
                  change.serving
                    ? logger.warn(
                        `Postgres unreachable: serving manifests past their age, up to ${config.public.staleIfErrorMs / 1_000} s after their read (first: ${change.hostname}, version ${change.version}, read ${Math.round(change.readAgoMs / 1_000)} s ago)`,
                      )
                    : logger.log(
                        `Postgres reachable again: ${change.answers} answers were served from stale manifests over ${Math.round(change.forMs / 1_000)} s`,
                      ),
              },
            );
            metrics.observeStaleServing(reader);
            await reader.listen(subscriber, manifestChannel(config.queuePrefix));
            return reader;
          },
        },
        {
          // Ready: Postgres answers, and Redis, which announces new manifests to this process.
          provide: Readiness,
          inject: [BLOB_POOL, MANIFEST_SUBSCRIBER],
          useFactory: (pool: Pool, subscriber: RedisConnection) => {
            const logger = new Logger('health');
            return new Readiness(
              { postgres: postgresCheck(pool), redis: redisCheck(subscriber) },
              {
                onChange: (report) =>
                  logger.warn(report.ready ? 'ready' : `not ready: ${JSON.stringify(report.failures)}`),
              },
            );
          },
        },
        PublicService,
        PublicRoutes,
        PublicConnections,
        ...(crawls ? crawlProviders(config, options, crawls, metrics) : []),
        // What still passes through Nest (its not-found handler, for one) answers as bare as the route does.
        { provide: APP_FILTER, useClass: PublicExceptionFilter },
      ],
    };
  }
}

/** The crawl counts' writer: on the primary (a replica cannot be written), through a small pool of its own. */
function crawlProviders(
  config: AppConfig,
  options: PublicOptions,
  tally: CrawlTally,
  metrics: PlatformMetrics,
): Provider[] {
  return [
    { provide: CRAWL_POOL, useFactory: () => createPgPool(config.databaseUrl, { max: 2 }) },
    {
      provide: CRAWL_FLUSHER,
      inject: [ManifestReader, CRAWL_POOL],
      useFactory: (reader: ManifestReader, pool: Pool) =>
        new CrawlFlusher(tally, reader, new CrawlRepository(pool), crawlerDns(config.crawls.dnsServers), {
          flushMs: config.crawls.flushMs,
          platformHost: options.platformHost,
          verdictTtlMs: config.crawls.verdictTtlMs,
          failedVerdictTtlMs: config.crawls.failedVerdictTtlMs,
          onDropped: (reason, fetches) => metrics.crawlFetchesDropped.inc({ reason }, fetches),
        }),
    },
    CrawlFlushing,
  ];
}
