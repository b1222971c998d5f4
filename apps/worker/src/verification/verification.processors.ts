// The verification queue: `verify-site` checks one site; `sweep-verification`, on a schedule,
// queues a check for every site whose check is due (pending sites with backoff, verified sites
// daily). When checks are due lives in Postgres (sites.verification_due_at), so a Redis that
// lost its jobs loses no schedule: the next sweep finds them again.
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { z } from 'zod';
import type { AppConfig } from '@sitemaps/config';
import { SiteOwnershipRepository } from '@sitemaps/data';
import { JOB, jobId, QUEUE, VerificationProducer, verifySitePayload, type RedisConnection } from '@sitemaps/jobs';
import { JobWorkers } from '../job-workers';
import { CONFIG, REDIS } from '@sitemaps/core';
import { SiteVerifier } from './site.verifier';

const sweepPayload = z.object({ v: z.literal(1) });
const verificationPayload = z.union([verifySitePayload, sweepPayload]);
const SWEEP_BATCH = 500;

@Injectable()
export class VerificationProcessors implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('verification');
  private queue: Queue | undefined;
  private producer: VerificationProducer | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: RedisConnection,
    private readonly ownership: SiteOwnershipRepository,
    private readonly verifier: SiteVerifier,
    private readonly workers: JobWorkers,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.workers.serves(QUEUE.verification)) return;
    this.queue = VerificationProducer.queue(this.redis, this.config.queuePrefix);
    this.producer = new VerificationProducer(this.queue);
    await this.ensureSchedule();
    this.redis.on('ready', this.onReady);
    this.workers.serve(QUEUE.verification, verificationPayload, async (data, job) => {
      if (job.name === JOB.sweepVerification) return { queued: await this.sweep() };
      if (!('siteId' in data)) throw new Error(`${job.name} without a site id`);
      return { status: await this.verifier.verify(data.siteId) };
    });
  }

  private readonly onReady = () =>
    void this.ensureSchedule().catch((error: Error) =>
      this.logger.warn(`verification sweep not restored yet: ${error.message}`),
    );

  /** Off: no checks are due (sites are verified on creation), so no sweep either. */
  private async ensureSchedule(): Promise<void> {
    if (!this.config.verification.enabled) {
      await this.queue?.removeJobScheduler(jobId.sweepVerification);
      return;
    }
    await this.queue?.upsertJobScheduler(
      jobId.sweepVerification,
      { every: this.config.verification.sweepMs },
      { name: JOB.sweepVerification, data: { v: 1 } },
    );
  }

  /** Queues the checks that are due; each site is leased so the next sweep does not queue it again. */
  async sweep(now = new Date()): Promise<number> {
    const { retryMs, sweepMs } = this.config.verification;
    const lease = Math.max(retryMs, sweepMs * 5, 60_000);
    let queued = 0;
    for (;;) {
      const due = await this.ownership.claimDue(now, lease, SWEEP_BATCH);
      for (const siteId of due) await this.producer?.requestCheck(siteId);
      queued += due.length;
      if (due.length < SWEEP_BATCH) return queued;
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.redis.off('ready', this.onReady);
    await this.queue?.close();
  }
}
