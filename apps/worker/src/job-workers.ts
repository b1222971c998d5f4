// One BullMQ Worker per served queue: validates payloads (a payload that does not parse never
// will, so it fails without retries), maps domain errors to UnrecoverableError, and closes all
// workers on shutdown. Which queues this process serves is config (WORKER_QUEUES).
// Every log line written while a job runs carries its queue, job id, site and build (the job's
// logger is in nestjs-pino's async context), and each job ends with one line saying how it went.
// A queue this process has stopped consuming (see ConsumerWatch) is logged and named by
// `stalled()`, which the worker's readiness reads: an orchestrator replaces such a process.
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { UnrecoverableError, Worker, type Job, type Queue, type WorkerOptions } from 'bullmq';
import { storage, Store } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { AppConfig } from '@sitemaps/config';
import { DomainError } from '@sitemaps/domain';
import { createQueue, type QueueName, type RedisConnection } from '@sitemaps/jobs';
import { jobTelemetry, PlatformMetrics, redactUrls, ROOT_LOGGER } from '@sitemaps/observability';
import { ConsumerWatch } from './consumer-watch';
import { CONFIG, REDIS } from '@sitemaps/core';

export interface ServeOptions {
  /** Called once a job has failed for good (retries exhausted or unrecoverable). */
  onFinalFailure?: (job: Job, error: Error) => Promise<void>;
  concurrency?: number;
  /** Advanced worker settings, e.g. a custom backoff strategy for the queue's own backoff types. */
  settings?: WorkerOptions['settings'];
}

/** One served queue: its BullMQ worker, a queue handle to count its jobs, and what this process does with them. */
interface Consumer {
  queue: QueueName;
  worker: Worker;
  counted: Queue;
  concurrency: number;
  running: number;
  lastTakenAt: number;
  watch: ConsumerWatch;
}

@Injectable()
export class JobWorkers implements OnModuleDestroy {
  private readonly logger: Logger;
  private readonly consumers: Consumer[] = [];
  private closing = false;
  private watchTimer: NodeJS.Timeout | undefined;
  private watching = false;

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

  /** The queues this process should consume and does not, with why (empty when all is well). */
  stalled(): { queue: QueueName; reason: string }[] {
    if (this.closing) return [];
    return this.consumers.flatMap(({ queue, watch }) =>
      watch.current.stalled ? [{ queue, reason: watch.current.reason ?? 'stalled' }] : [],
    );
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
    const concurrency = opts.concurrency ?? this.config.worker.concurrency;
    const consumer: Partial<Consumer> & { running: number; lastTakenAt: number } = { running: 0, lastTakenAt: 0 };
    const worker = new Worker(
      queue,
      (job: Job) => {
        consumer.running += 1;
        consumer.lastTakenAt = Date.now();
        const log = this.logger.child(jobFields(queue, job));
        return storage.run(new Store(log), async () => {
          const started = performance.now();
          try {
            const parsed = schema.safeParse(job.data);
            if (!parsed.success) throw new UnrecoverableError(`invalid ${queue} payload: ${parsed.error.message}`);
            const result = await handle(parsed.data, job);
            log.info({ ms: Math.round(performance.now() - started) }, 'job done');
            return result;
          } catch (error) {
            if (error instanceof DomainError && error.kind !== 'conflict')
              throw withoutCredentials(new UnrecoverableError(error.message));
            throw withoutCredentials(error);
          } finally {
            consumer.running -= 1;
          }
        });
      },
      {
        connection: this.redis,
        prefix: this.config.queuePrefix,
        concurrency,
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
    const counted = createQueue(queue, this.redis, this.config.queuePrefix);
    this.metrics.observeQueues([counted]);
    Object.assign(consumer, {
      queue,
      worker,
      counted,
      concurrency,
      watch: new ConsumerWatch(this.config.worker.stallMs),
    });
    this.consumers.push(consumer as Consumer);
    this.startWatch();
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    clearInterval(this.watchTimer);
    await Promise.all(this.consumers.map(({ worker }) => worker.close()));
    await Promise.all(this.consumers.map(({ counted }) => counted.close()));
  }

  /** Looks at every served queue a few times per stall period; one look at a time (a look waits on Redis). */
  private startWatch(): void {
    if (this.watchTimer) return;
    const every = Math.min(5_000, Math.max(250, Math.floor(this.config.worker.stallMs / 4)));
    this.watchTimer = setInterval(() => {
      if (this.watching || this.closing) return;
      this.watching = true;
      void this.look().finally(() => (this.watching = false));
    }, every);
    this.watchTimer.unref();
  }

  private async look(): Promise<void> {
    for (const consumer of this.consumers) {
      const ready = await readyJobs(this.redis, consumer.counted.keys).catch(() => undefined);
      if (ready === undefined || this.closing) continue;
      const was = consumer.watch.current.stalled;
      const state = consumer.watch.observe({
        at: Date.now(),
        ready,
        running: consumer.running,
        concurrency: consumer.concurrency,
        lastTakenAt: consumer.lastTakenAt,
        loopRunning: consumer.worker.isRunning(),
      });
      if (state.stalled && !was)
        this.logger.error(
          { queue: consumer.queue, blockingClient: await blockingStatus(consumer.worker) },
          `not consuming queue ${consumer.queue}: ${state.reason}`,
        );
      else if (!state.stalled && was)
        this.logger.warn({ queue: consumer.queue }, `consuming queue ${consumer.queue} again`);
    }
  }
}

/**
 * Jobs a worker would take now: waiting, prioritized, and delayed ones whose time has come (BullMQ
 * promotes those when a worker next asks; a debounced build or a retry waits there). Plain reads,
 * not a script: they answer even while Redis refuses writes. A delayed job's score is its due
 * time × 0x1000 plus a counter (BullMQ's getDelayedScore).
 */
async function readyJobs(redis: RedisConnection, keys: Queue['keys']): Promise<number> {
  const [waiting, prioritized, due] = await Promise.all([
    redis.llen(keys.wait as string),
    redis.zcard(keys.prioritized as string),
    redis.zcount(keys.delayed as string, '-inf', `(${Date.now() * 0x1000}`),
  ]);
  return waiting + prioritized + due;
}

/** The status of the worker's blocking Redis client, for the log line of a stall. */
async function blockingStatus(worker: Worker): Promise<string> {
  // waitUntilReady() resolves with the blocking client once the worker's connections are up.
  const client = await Promise.race([
    worker.waitUntilReady(),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100)),
  ]).catch(() => undefined);
  return client?.status ?? 'unknown';
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
