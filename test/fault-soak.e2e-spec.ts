// The fault soak, short (test/support/fault-soak.ts; `npm run soak` runs it for minutes, with the
// process kills too): mixed load on a Redis Cluster while the master serving the queues fails over
// to its replica, Postgres is down for a few seconds and started again, and the primary crashes and
// its synchronous replica is promoted behind the proxy. What is published is what is stored, no
// acknowledged write is lost, no crawler got a partial set, no job is left stuck, and a client
// refused while Postgres was down got a 503 with Retry-After, never a 500.
import { describe, expect, it } from 'vitest';
import { formatSoakReport, runFaultSoak } from './support/fault-soak';

describe('fault soak (short)', () => {
  it('keeps every invariant through a Redis Cluster failover, a Postgres outage and a crash promotion', async () => {
    const report = await runFaultSoak({
      durationMs: 10_000,
      faultEveryMs: 3_000,
      faults: ['redis-master', 'postgres-restart', 'postgres-crash'],
      redis: 'cluster',
      postgresDownMs: 3_000,
      workers: 1,
    });
    console.info(formatSoakReport(report));
    expect(report.faults.map((fault) => fault.kind)).toEqual(['redis-master', 'postgres-restart', 'postgres-crash']);
    expect(report.publishedDiff).toEqual({ missing: [], extra: [] });
    expect(report.published).toBe(report.stored);
    expect(report.lost).toEqual([]);
    expect(report.crawler.partialSets).toEqual([]);
    expect(report.crawler.completeSets).toBeGreaterThan(0);
    expect(report.stuckJobs).toEqual({});
    expect(report.crashes).toEqual([]);
    // Error keys are `<request> <status> <code> [Retry-After n]`, or `<request> <network error>`.
    const serverErrors = Object.keys(report.clientErrors).filter((key) => / 5\d\d( |$)/.test(key));
    expect(serverErrors.filter((key) => !/ 503 DATABASE_UNAVAILABLE Retry-After \d+$/.test(key))).toEqual([]);
  }, 600_000);
});
