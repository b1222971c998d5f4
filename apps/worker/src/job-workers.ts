// One BullMQ Worker per served queue: validates payloads (a payload that does not parse never
// will, so it fails without retries), maps domain errors to UnrecoverableError, and closes all
// workers on shutdown. Which queues this process serves is config (WORKER_QUEUES).
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import type { z } from 'zod';
import type { AppConfig } from '@sitemaps/config';
import { DomainError } from '@sitemaps/domain';
import type { QueueName, RedisConnection } from '@sitemaps/jobs';
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
  private readonly logger = new Logger('jobs');
  private readonly workers: Worker[] = [];
  private closing = false;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: RedisConnection,
  ) {}

  /** Taking jobs: true from the start until shutdown begins. */
  get running(): boolean {
    return !this.closing;
  }

  serves(queue: QueueName): boolean {
    return this.config.worker.queues.includes(queue);
  }

  serve<T>(queue: QueueName, schema: z.ZodType<T>, handle: (data: T, job: Job) => Promise<unknown>, opts: ServeOptions = {}): void {
    if (!this.serves(queue)) return;
    const worker = new Worker(
      queue,
      async (job: Job) => {
        const parsed = schema.safeParse(job.data);
        if (!parsed.success) throw new UnrecoverableError(`invalid ${queue} payload: ${parsed.error.message}`);
        try {
          return await handle(parsed.data, job);
        } catch (error) {
          if (error instanceof DomainError && error.kind !== 'conflict') throw new UnrecoverableError(error.message);
          throw error;
        }
      },
      {
        connection: this.redis,
        prefix: this.config.queuePrefix,
        concurrency: opts.concurrency ?? this.config.worker.concurrency,
        // A killed worker's jobs return to the queue once their lock lapses.
        lockDuration: this.config.worker.lockMs,
        stalledInterval: Math.max(500, Math.floor(this.config.worker.lockMs / 2)),
        ...(opts.settings ? { settings: opts.settings } : {}),
      },
    );
    worker.on('failed', (job, error) => {
      if (!job) return;
      const final = job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError;
      this.logger.error(`${queue} job ${job.id} failed (attempt ${job.attemptsMade}${final ? ', final' : ''}): ${error.message}`);
      if (final && opts.onFinalFailure) void opts.onFinalFailure(job, error);
    });
    worker.on('error', (error) => this.logger.error(`${queue} worker: ${error.message}`));
    this.workers.push(worker);
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => worker.close()));
  }
}
