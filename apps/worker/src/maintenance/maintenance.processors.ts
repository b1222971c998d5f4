// Housekeeping on a schedule (see GarbageCollector and ShardUpkeep): one job scheduler per task
// under a stable id, and one handler per job name, checked at start-up. The same queue removes
// the files of deleted sites, one job per site, queued by the API after the deletion.
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { UnrecoverableError, type Job, type Queue } from 'bullmq';
import type { AppConfig } from '@sitemaps/config';
import {
  JOB,
  jobDispatcher,
  jobId,
  MAINTENANCE_JOBS,
  maintenancePayload,
  QUEUE,
  removeSiteFilesPayload,
  type MaintenanceJob,
  type RedisConnection,
} from '@sitemaps/jobs';
import { JobWorkers } from '../job-workers';
import { CONFIG, MAINTENANCE_QUEUE, REDIS } from '@sitemaps/core';
import { GarbageCollector } from './garbage.collector';
import { ShardUpkeep } from './shard-upkeep';
import { CrawlEvents } from './crawl-events';

const NEWS_REFRESH_EVERY_MS = 15 * 60_000;
const COMPACT_EVERY_MS = 60 * 60_000;

@Injectable()
export class MaintenanceProcessors implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('maintenance');

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(MAINTENANCE_QUEUE) private readonly queue: Queue,
    private readonly garbage: GarbageCollector,
    private readonly shards: ShardUpkeep,
    private readonly crawls: CrawlEvents,
    private readonly workers: JobWorkers,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.workers.serves(QUEUE.maintenance)) return;
    const names = [...MAINTENANCE_JOBS, JOB.removeSiteFiles] as const;
    const dispatch = jobDispatcher<MaintenanceJob | typeof JOB.removeSiteFiles, unknown>(QUEUE.maintenance, names, {
      [JOB.collectGarbage]: () => this.garbage.collect(),
      [JOB.refreshNews]: () => this.shards.refreshNews(),
      [JOB.compactShards]: () => this.shards.compactShards(),
      [JOB.crawlEvents]: () => this.crawls.run(),
      [JOB.staleShards]: () => this.crawls.announceStale(),
      [JOB.removeSiteFiles]: (job) => this.garbage.removeSiteFiles(siteOf(job)),
    });
    await this.ensureSchedules();
    // Schedulers live in Redis: put them back after a Redis restart that lost them.
    this.redis.on('ready', this.onReady);
    this.workers.serve(QUEUE.maintenance, maintenancePayload, (_, job) => dispatch(job), { concurrency: 1 });
  }

  private readonly onReady = () =>
    void this.ensureSchedules().catch((error: Error) =>
      this.logger.warn(`schedules not restored yet: ${error.message}`),
    );

  /** Upserts under stable ids: every worker process may run this, one schedule results. */
  private async ensureSchedules(): Promise<void> {
    const gcEvery = Math.max(60_000, Math.floor(this.config.storage.graceMs / 2));
    await this.queue.upsertJobScheduler(
      jobId.collectGarbage,
      { every: gcEvery },
      { name: JOB.collectGarbage, data: { v: 1 } },
    );
    await this.queue.upsertJobScheduler(
      jobId.refreshNews,
      { every: NEWS_REFRESH_EVERY_MS },
      { name: JOB.refreshNews, data: { v: 1 } },
    );
    await this.queue.upsertJobScheduler(
      jobId.compactShards,
      { every: COMPACT_EVERY_MS },
      { name: JOB.compactShards, data: { v: 1 } },
    );
    await this.queue.upsertJobScheduler(
      jobId.crawlEvents,
      { every: this.config.crawls.eventsEveryMs },
      { name: JOB.crawlEvents, data: { v: 1 } },
    );
    await this.queue.upsertJobScheduler(
      jobId.staleShards,
      { every: this.config.crawls.staleEveryMs },
      { name: JOB.staleShards, data: { v: 1 } },
    );
  }

  onModuleDestroy(): void {
    this.redis.off('ready', this.onReady);
  }
}

/** The site of a remove-site-files job (the queue's common schema checks only the version). */
function siteOf(job: Job): string {
  const parsed = removeSiteFilesPayload.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`invalid ${job.name} payload: ${parsed.error.message}`);
  return parsed.data.siteId;
}
