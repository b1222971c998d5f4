// The fault soak, short (test/support/fault-soak.ts; `npm run soak` runs it for minutes): mixed
// load while a worker, the API, the public server, Redis and Postgres are each killed or restarted
// once and the Postgres replica is promoted. What is published is what is stored, no
// acknowledged write is lost, no crawler got a partial set, no job is left stuck.
import { describe, expect, it } from 'vitest';
import { formatSoakReport, runFaultSoak } from './support/fault-soak';

describe('fault soak (short)', () => {
  it('keeps every invariant through a kill or restart of each process and a Postgres promotion', async () => {
    const report = await runFaultSoak({
      durationMs: 100_000,
      faultEveryMs: 15_000,
      faults: ['worker', 'postgres-restart', 'api', 'redis', 'public', 'postgres-promote'],
    });
    console.info(formatSoakReport(report));
    expect(report.faults.map((fault) => fault.kind).sort()).toEqual(
      ['api', 'postgres-promote', 'postgres-restart', 'public', 'redis', 'worker'].sort(),
    );
    expect(report.publishedDiff).toEqual({ missing: [], extra: [] });
    expect(report.published).toBe(report.stored);
    expect(report.lost).toEqual([]);
    expect(report.crawler.partialSets).toEqual([]);
    expect(report.crawler.completeSets).toBeGreaterThan(0);
    expect(report.stuckJobs).toEqual({});
    expect(report.crashes).toEqual([]);
  }, 1_200_000);
});
