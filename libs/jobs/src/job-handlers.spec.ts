import { UnrecoverableError, type Job } from 'bullmq';
import { KNOWN_QUEUES } from '@sitemaps/config';
import { describe, expect, it } from 'vitest';
import { jobDispatcher } from './job-handlers';
import { JOB, MAINTENANCE_JOBS, QUEUE } from './queues';

const job = (name: string) => ({ name }) as Job;

describe('jobDispatcher', () => {
  const handlers = {
    [JOB.collectGarbage]: async () => 'gc',
    [JOB.refreshNews]: async () => 'news',
    [JOB.compactShards]: async () => 'compact',
    [JOB.crawlEvents]: async () => 'crawls',
    [JOB.staleShards]: async () => 'stale',
  };

  it("runs the handler of the job's name", async () => {
    const dispatch = jobDispatcher(QUEUE.maintenance, MAINTENANCE_JOBS, handlers);
    expect(await dispatch(job(JOB.refreshNews))).toBe('news');
    expect(await dispatch(job(JOB.compactShards))).toBe('compact');
  });

  it('fails an unknown job once, as unrecoverable', async () => {
    const dispatch = jobDispatcher(QUEUE.maintenance, MAINTENANCE_JOBS, handlers);
    await expect(dispatch(job('collect-garbag'))).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(dispatch(job('toString'))).rejects.toThrow(/unknown job toString/);
  });

  it('refuses to start with a job name that has no handler, or a handler for no job', () => {
    const { [JOB.refreshNews]: _dropped, ...incomplete } = handlers;
    expect(() => jobDispatcher(QUEUE.maintenance, MAINTENANCE_JOBS, incomplete as typeof handlers)).toThrow(
      /no handler for refresh-news/,
    );
    const extra: Record<string, () => Promise<string>> = { ...handlers, 'old-job': async () => 'x' };
    expect(() => jobDispatcher(QUEUE.maintenance, MAINTENANCE_JOBS, extra as typeof handlers)).toThrow(
      /handlers for unknown jobs old-job/,
    );
  });
});

describe('queue names', () => {
  it('are the ones the config lets WORKER_QUEUES name', () => {
    expect(Object.values(QUEUE).sort()).toEqual([...KNOWN_QUEUES].sort());
  });
});
