// Housekeeping on a schedule: deletes files dropped from manifests once crawlers that started
// a download before the switch have had the grace period to finish, and takes articles that
// aged out of the two-day news window out of the news sitemaps.
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Queue } from 'bullmq';
import { z } from 'zod';
import type { AppConfig } from '@sitemaps/config';
import { BuildRepository, IdempotencyKeyRepository, ShardRepository } from '@sitemaps/data';
import { DEFAULT_JOB_OPTIONS, JOB, jobId, QUEUE, type RedisConnection } from '@sitemaps/jobs';
import type { BlobStore } from '@sitemaps/storage';
import { JobWorkers } from '../job-workers';
import type { UrlIngestService } from '@sitemaps/ingest';
import { MAX_URLS_PER_FILE } from '@sitemaps/domain';
import type { BuildProducer } from '@sitemaps/jobs';
import { BLOB_STORE, BUILD_PRODUCER, CONFIG, REDIS, URL_INGEST } from '../worker.tokens';
import { ShardCompactor } from './shard-compactor';
import { jobTelemetry } from '@sitemaps/observability';

const maintenancePayload = z.object({ v: z.literal(1) });
const NEWS_REFRESH_EVERY_MS = 15 * 60_000;
const COMPACT_EVERY_MS = 60 * 60_000;
/** Render records of builds older than this are only history. */
const RENDER_RETENTION_MS = 7 * 24 * 3_600_000;

@Injectable()
export class MaintenanceProcessors implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('maintenance');
  private queue: Queue | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: RedisConnection,
    private readonly buildRepository: BuildRepository,
    private readonly shards: ShardRepository,
    private readonly idempotencyKeys: IdempotencyKeyRepository,
    @Inject(BLOB_STORE) private readonly store: BlobStore,
    @Inject(URL_INGEST) private readonly ingest: UrlIngestService,
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
    private readonly compactor: ShardCompactor,
    private readonly workers: JobWorkers,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.workers.serves(QUEUE.maintenance)) return;
    this.queue = new Queue(QUEUE.maintenance, { connection: this.redis, prefix: this.config.queuePrefix, defaultJobOptions: DEFAULT_JOB_OPTIONS, ...jobTelemetry() });
    await this.ensureSchedules();
    // Schedulers live in Redis: put them back after a Redis restart that lost them.
    this.redis.on('ready', this.onReady);
    const tasks: Record<string, () => Promise<unknown>> = {
      [JOB.collectGarbage]: () => this.collectGarbage(),
      [JOB.refreshNews]: () => this.refreshNews(),
      [JOB.compactShards]: () => this.compactShards(),
    };
    this.workers.serve(QUEUE.maintenance, maintenancePayload, (_, job) => (tasks[job.name] ?? this.collectGarbage)(), { concurrency: 1 });
  }

  private readonly onReady = () => void this.ensureSchedules().catch((error: Error) => this.logger.warn(`schedules not restored yet: ${error.message}`));

  /** Upserts under stable ids: every worker process may run this, one schedule results. */
  private async ensureSchedules(): Promise<void> {
    await this.queue?.upsertJobScheduler(jobId.collectGarbage, { every: Math.max(60_000, Math.floor(this.config.storage.graceMs / 2)) }, { name: JOB.collectGarbage, data: { v: 1 } });
    await this.queue?.upsertJobScheduler(jobId.refreshNews, { every: NEWS_REFRESH_EVERY_MS }, { name: JOB.refreshNews, data: { v: 1 } });
    await this.queue?.upsertJobScheduler(jobId.compactShards, { every: COMPACT_EVERY_MS }, { name: JOB.compactShards, data: { v: 1 } });
  }

  async collectGarbage(): Promise<{ blobs: number; renders: number; idempotencyKeys: number }> {
    const blobs = await this.store.collectGarbage(this.config.storage.graceMs);
    const renders = await this.buildRepository.deleteRendersBefore(new Date(Date.now() - RENDER_RETENTION_MS));
    const idempotencyKeys = await this.idempotencyKeys.deleteExpired(new Date(Date.now() - this.config.idempotencyKeyTtlSeconds * 1000));
    if (blobs || renders || idempotencyKeys) this.logger.log(`collected ${blobs} blobs, ${renders} render records and ${idempotencyKeys} expired idempotency keys`);
    return { blobs, renders, idempotencyKeys };
  }

  async refreshNews(now = new Date()): Promise<number> {
    const sites = await this.ingest.sitesWithExpiredNews(now);
    let changed = 0;
    for (const site of sites) changed += await this.ingest.expireNews(site, now);
    if (changed) this.logger.log(`moved ${changed} aged-out articles out of news sitemaps`);
    return changed;
  }

  /** Merges under-filled neighbouring shards; sites that changed get a (coalesced) build. */
  async compactShards(): Promise<number> {
    const sites = await this.shards.sitesWithShardsUnder(MAX_URLS_PER_FILE / 2);
    let merged = 0;
    for (const siteId of sites) {
      const count = await this.compactor.compact(siteId);
      if (count > 0) await this.builds.afterChange(siteId);
      merged += count;
    }
    if (merged) this.logger.log(`compacted ${merged} shards`);
    return merged;
  }

  async onModuleDestroy(): Promise<void> {
    this.redis.off('ready', this.onReady);
    await this.queue?.close();
  }
}
