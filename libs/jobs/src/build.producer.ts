import type { Queue } from 'bullmq';
import type { RedisConnection } from './connection';
import { createQueue } from './job-handlers';
import { JOB, jobId, planBuildPayload, QUEUE, type PlanBuildPayload } from './queues';

export interface BuildTiming {
  quietMs: number;
  maxWaitMs: number;
}

/** Enqueues site builds: explicit ones by build id, change-triggered ones coalesced per site. */
export class BuildProducer {
  constructor(
    private readonly queue: Queue,
    private readonly redis: RedisConnection,
    private readonly timing: BuildTiming,
  ) {}

  static queue(connection: RedisConnection, prefix: string): Queue {
    return createQueue(QUEUE.build, connection, prefix);
  }

  async enqueueBuild(payload: PlanBuildPayload & { buildId: string }): Promise<void> {
    const data = planBuildPayload.parse(payload);
    await this.queue.add(JOB.planBuild, data, { jobId: jobId.planBuild(payload.buildId) });
  }

  /**
   * Debounce: each change pushes the build back by the quiet period, until the first pending
   * change is older than maxWait; then the pending job is left to run, so a constant stream
   * of changes still publishes. `keepLastIfActive` queues one follow-up while a build runs.
   */
  async afterChange(siteId: string): Promise<void> {
    const firstKey = `${this.queue.opts.prefix ?? 'bull'}:pending-since:${siteId}`;
    const now = Date.now();
    await this.redis.set(firstKey, String(now), 'PX', Math.max(this.timing.maxWaitMs * 4, 60_000), 'NX');
    const since = Number((await this.redis.get(firstKey)) ?? now);
    const stillQuiet = now - since < this.timing.maxWaitMs;
    const data = planBuildPayload.parse({ v: 1, siteId, full: false, trigger: 'change' });
    await this.queue.add(JOB.planBuild, data, {
      delay: stillQuiet ? this.timing.quietMs : Math.max(0, since + this.timing.maxWaitMs - now),
      deduplication: { id: jobId.siteChanges(siteId), replace: stillQuiet, keepLastIfActive: true },
    });
  }

  /**
   * Keeps the site's scheduled full rebuild in step with its cron expression (null removes it).
   * One job scheduler per site under a stable id, so re-saving a site never duplicates it.
   */
  async scheduleRebuilds(siteId: string, cron: string | null): Promise<void> {
    const id = jobId.siteSchedule(siteId);
    if (cron === null) {
      await this.queue.removeJobScheduler(id);
      return;
    }
    const data = planBuildPayload.parse({ v: 1, siteId, full: true, trigger: 'schedule' });
    await this.queue.upsertJobScheduler(id, { pattern: cron, tz: 'UTC' }, { name: JOB.planBuild, data });
  }

  /** Next run of the site's scheduled rebuild, if it has one. */
  async nextScheduledRebuild(siteId: string): Promise<Date | null> {
    const scheduler = await this.queue.getJobScheduler(jobId.siteSchedule(siteId));
    return scheduler?.next ? new Date(scheduler.next) : null;
  }

  /** The planner calls this when it starts, so the next change opens a new window. */
  async clearPending(siteId: string): Promise<void> {
    await this.redis.del(`${this.queue.opts.prefix ?? 'bull'}:pending-since:${siteId}`);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
