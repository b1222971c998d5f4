// BullMQ workers for the build queues: translate jobs into calls on the planner, renderer and
// publisher; final failures mark the build failed so the API reports it.
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AppConfig } from '@sitemaps/config';
import type { PrismaClient } from '@sitemaps/data';
import { DomainError } from '@sitemaps/domain';
import { planBuildPayload, publishBuildPayload, QUEUE, renderShardPayload, type QueueName } from '@sitemaps/jobs';
import { z } from 'zod';
import { CONFIG, PRISMA, REDIS } from '../worker.tokens';
import { BuildPlanner } from './build-planner';
import { BuildPublisher } from './build-publisher';
import { ShardRenderer } from './shard-renderer';

@Injectable()
export class BuildProcessors implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('builds');
  private readonly workers: Worker[] = [];

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly planner: BuildPlanner,
    private readonly renderer: ShardRenderer,
    private readonly publisher: BuildPublisher,
  ) {}

  onModuleInit(): void {
    this.serve(QUEUE.build, planBuildPayload, (data) => this.planner.plan(data));
    this.serve(QUEUE.shard, renderShardPayload, (data) => this.renderer.render(data));
    this.serve(QUEUE.publish, publishBuildPayload, (data) => this.publisher.publish(data));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close()));
  }

  private serve<T extends { buildId?: string | undefined }>(queue: QueueName, schema: z.ZodType<T>, handle: (data: T) => Promise<unknown>): void {
    if (!this.config.worker.queues.includes(queue)) return;
    const worker = new Worker(
      queue,
      async (job: Job) => {
        const parsed = schema.safeParse(job.data);
        // A payload that does not parse will never parse: do not retry it.
        if (!parsed.success) throw new UnrecoverableError(`invalid ${queue} payload: ${parsed.error.message}`);
        try {
          return await handle(parsed.data);
        } catch (error) {
          if (error instanceof DomainError && error.kind !== 'conflict') throw new UnrecoverableError(error.message);
          throw error;
        }
      },
      { connection: this.redis, prefix: this.config.queuePrefix, concurrency: this.config.worker.concurrency },
    );
    worker.on('failed', (job, error) => {
      if (!job) return;
      const final = job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError;
      this.logger.error(`${queue} job ${job.id} failed (attempt ${job.attemptsMade}${final ? ', final' : ''}): ${error.message}`);
      const buildId = (job.data as { buildId?: unknown }).buildId;
      if (final && typeof buildId === 'string') void this.markFailed(buildId, error.message);
    });
    worker.on('error', (error) => this.logger.error(`${queue} worker: ${error.message}`));
    this.workers.push(worker);
  }

  private async markFailed(buildId: string, message: string): Promise<void> {
    await this.prisma.build
      .updateMany({ where: { id: buildId, status: { in: ['queued', 'running'] } }, data: { status: 'failed', error: message, finishedAt: new Date() } })
      .catch((error: Error) => this.logger.error(`could not mark build ${buildId} failed: ${error.message}`));
  }
}
