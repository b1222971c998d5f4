// One BullMQ Worker per served queue: validates payloads (a payload that does not parse never
// will, so it fails without retries), maps domain errors to UnrecoverableError, and closes all
// workers on shutdown. Which queues this process serves is config (WORKER_QUEUES).
// Every log line written while a job runs carries its queue, job id, site and build (the job's
// logger is in nestjs-pino's async context), and each job ends with one line saying how it went.
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Queue, UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import { storage, Store } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { AppConfig } from '@sitemaps/config';
import { DomainError } from '@sitemaps/domain';
import type { QueueName, RedisConnection } from '@sitemaps/jobs';
import { jobTelemetry, PlatformMetrics, redactUrls, ROOT_LOGGER } from '@sitemaps/observability';
import { CONFIG, REDIS } from './worker.tokens';

export interface ServeOptions {
  /** Called once a job has failed for good (retries exhausted or unrecoverable). */
  onFinalFailure?: (job: Job, error: Error) => Promise<void>;
  concurrency?: number;
  /** Advanced worker settings, e.g. a custom backoff strategy for the queue's own backoff types. */
  settings?: WorkerOptions['settings'];
}

@Injectable()
export class JobWorkers implements OnModuleDestroy {
  private readonly logger: Logger;
  private readonly workers: Worker[] = [];
  private closing = false;
  /** Read for the queue gauge on scrape. */
  private readonly queues: Queue[] = [];

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(ROOT_LOGGER) logger: Logger,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
  ) {
    this.logger = logger.child({ component: 'jobs' });
  }

  /** Taking jobs: true from the start until shutdown begins. */
  get running(): boolean {
    return !this.closing;
  }

  serves(queue: QueueName): boolean {
    return this.config.worker.queues.includes(queue);
  }

  serve<T>(
    queue: QueueName,
    schema: z.ZodType<T>,
    handle: (data: T, job: Job) => Promise<unknown>,
    opts: ServeOptions = {},
  ): void {
    if (!this.serves(queue)) return;
    const worker = new Worker(
      queue,
      (job: Job) => {
        const log = this.logger.child(jobFields(queue, job));
        return storage.run(new Store(log), async () => {
          const started = performance.now();
          const parsed = schema.safeParse(job.data);
          if (!parsed.success) throw new UnrecoverableError(`invalid ${queue} payload: ${parsed.error.message}`);
          try {
            const result = await handle(parsed.data, job);
            log.info({ ms: Math.round(performance.now() - started) }, 'job done');
            return result;
          } catch (error) {
            if (error instanceof DomainError && error.kind !== 'conflict')
              throw withoutCredentials(new UnrecoverableError(error.message));
            throw withoutCredentials(error);
          }
        });
      },
      {
        connection: this.redis,
        prefix: this.config.queuePrefix,
        concurrency: opts.concurrency ?? this.config.worker.concurrency,
        // A killed worker's jobs return to the queue once their lock lapses.
        lockDuration: this.config.worker.lockMs,
        stalledInterval: Math.max(500, Math.floor(this.config.worker.lockMs / 2)),
        ...(opts.settings ? { settings: opts.settings } : {}),
        ...jobTelemetry(),
      },
    );
    worker.on('failed', (job, error) => {
      if (!job) return;
      const final = job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError;
      this.logger.error(
        { ...jobFields(queue, job), attempt: job.attemptsMade, final, err: error },
        `job failed: ${error.message}`,
      );
      if (final && opts.onFinalFailure) void opts.onFinalFailure(job, error);
    });
    worker.on('error', (error) => this.logger.error({ queue, err: error }, `worker error: ${error.message}`));
    this.workers.push(worker);
    const counted = new Queue(queue, { connection: this.redis, prefix: this.config.queuePrefix });
    this.queues.push(counted);
    this.metrics.observeQueues([counted]);
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => worker.close()));
    await Promise.all(this.queues.map((queue) => queue.close()));
  }
}

/**
 * A job's failure reason is kept in Redis, logged, and shown on the queue board: the credentials of
 * any URL in it (a webhook's `user:password@`, a `?token=`) are taken out first, whatever failed.
 */
function withoutCredentials(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  error.message = redactUrls(error.message);
  if (error.stack) error.stack = redactUrls(error.stack);
  return error;
}

/** What each line about a job says: which job, and the site and build it works for. */
function jobFields(queue: string, job: Job): Record<string, unknown> {
  const data = (job.data ?? {}) as { siteId?: unknown; buildId?: unknown; shardId?: unknown; importId?: unknown };
  return {
    queue,
    jobId: job.id,
    job: job.name,
    ...(typeof data.siteId === 'string' ? { siteId: data.siteId } : {}),
    ...(typeof data.buildId === 'string' ? { buildId: data.buildId } : {}),
    ...(typeof data.shardId === 'string' ? { shardId: data.shardId } : {}),
    ...(typeof data.importId === 'string' ? { importId: data.importId } : {}),
  };
}
