// What worker.module adds for upkeep: garbage collection, shard upkeep and compaction, and the
// crawl events (sitemap.first_crawl), each run on the maintenance queue's schedule.
import type { Provider } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { BUILD_PRODUCER, CONFIG, URL_INGEST, WEBHOOK_PRODUCER } from '@sitemaps/core';
import {
  BuildRepository,
  CrawlRepository,
  IdempotencyKeyRepository,
  PersonRepository,
  ShardRepository,
} from '@sitemaps/data';
import type { UrlIngestService } from '@sitemaps/ingest';
import type { BuildProducer, WebhookProducer } from '@sitemaps/jobs';
import type { BlobStore } from '@sitemaps/storage';
import { BLOB_STORE } from '../worker.tokens';
import { CrawlEvents } from './crawl-events';
import { GarbageCollector } from './garbage.collector';
import { MaintenanceProcessors } from './maintenance.processors';
import { ShardCompactor } from './shard.compactor';
import { ShardUpkeep } from './shard-upkeep';

export const MAINTENANCE_PROVIDERS: Provider[] = [
  {
    provide: ShardCompactor,
    inject: [ShardRepository],
    useFactory: (shards: ShardRepository) => new ShardCompactor(shards),
  },
  {
    provide: GarbageCollector,
    inject: [CONFIG, BLOB_STORE, BuildRepository, IdempotencyKeyRepository, PersonRepository],
    useFactory: (
      config: AppConfig,
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
    useFactory: (ingest: UrlIngestService, shards: ShardRepository, compactor: ShardCompactor, builds: BuildProducer) =>
      new ShardUpkeep({ ingest, shards, compactor, builds }),
  },
  {
    provide: CrawlEvents,
    inject: [CONFIG, CrawlRepository, WEBHOOK_PRODUCER],
    useFactory: (config: AppConfig, crawls: CrawlRepository, webhooks: WebhookProducer) =>
      new CrawlEvents({ crawls, webhooks, retentionDays: config.crawls.retentionDays }),
  },
  MaintenanceProcessors,
];
