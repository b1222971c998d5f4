// What api.module adds for imports: the upload and sitemaps endpoints, the lib's import service
// over the API's pg pool, and the producer side of the import queue.
import { Inject, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import type { AppConfig } from '@sitemaps/config';
import { UrlImportService, type UrlIngestService } from '@sitemaps/ingest';
import { createQueue, QUEUE, type BuildProducer, type RedisConnection } from '@sitemaps/jobs';
import { createPgPool } from '@sitemaps/data';
import { PlatformMetrics } from '@sitemaps/observability';
import { BUILD_PRODUCER, CONFIG, REDIS, URL_INGEST } from '@sitemaps/core';
import { ImportsController } from './imports.controller';
import { ImportsService } from './imports.service';
import { UploadSlots } from './upload-slots';
import { IMPORT_PG_POOL, IMPORT_QUEUE, URL_IMPORTS } from './imports.tokens';

class ImportClients implements OnApplicationShutdown {
  constructor(
    @Inject(IMPORT_QUEUE) private readonly queue: Queue,
    @Inject(IMPORT_PG_POOL) private readonly pool: Pool,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.pool.end();
  }
}

export const IMPORT_CONTROLLERS = [ImportsController];

export const IMPORT_PROVIDERS: Provider[] = [
  // An upload holds a connection for its whole life, at its client's pace: from a pool of its own,
  // so slow uploads can never take the connections every other request needs.
  {
    provide: IMPORT_PG_POOL,
    inject: [CONFIG, PlatformMetrics],
    useFactory: (config: AppConfig, metrics: PlatformMetrics) => {
      const pool = createPgPool(config.databaseUrl, { max: config.import.dbConnections });
      metrics.observePool('api-uploads', pool);
      return pool;
    },
  },
  {
    provide: URL_IMPORTS,
    inject: [IMPORT_PG_POOL, URL_INGEST, BUILD_PRODUCER],
    useFactory: (pool: Pool, ingest: UrlIngestService, builds: BuildProducer) =>
      new UrlImportService(pool, ingest.writer, (siteId) => builds.afterChange(siteId)),
  },
  {
    provide: IMPORT_QUEUE,
    inject: [REDIS, CONFIG],
    useFactory: (redis: RedisConnection, config: AppConfig) => createQueue(QUEUE.import, redis, config.queuePrefix),
  },
  {
    provide: UploadSlots,
    inject: [CONFIG],
    useFactory: (config: AppConfig) => new UploadSlots(config.import.uploadsPerTenant),
  },
  ImportClients,
  ImportsService,
];
