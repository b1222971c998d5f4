// npm run soak [-- --minutes 20 --fault-every-s 30 --redis cluster|server --postgres-down-s 5 --workers 2
//   --faults worker,api,public,redis-master,postgres-restart,postgres-crash]
// The fault soak (test/support/fault-soak.ts) for as long as asked, on a Redis Cluster it starts
// (`--redis server`: one redis-server, whose fault is `redis`, and `postgres-promote` by default); prints its numbers and exits
// non-zero when an invariant broke: a published set unlike the stored one, an acknowledged write
// lost, a partial set served to the crawler, or jobs left stuck. docs/fault-soak.md has a run.
import os from 'node:os';
import { formatSoakReport, runFaultSoak, type FaultKind } from '../test/support/fault-soak';

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

async function main(): Promise<void> {
  const minutes = Number(arg('minutes', '20'));
  const faultEveryS = Number(arg('fault-every-s', '30'));
  const redis = arg('redis', 'cluster') === 'server' ? 'server' : 'cluster';
  const defaults =
    redis === 'cluster'
      ? 'worker,api,public,redis-master,postgres-restart,postgres-crash'
      : 'worker,api,public,redis,postgres-restart,postgres-promote';
  const faults = arg('faults', defaults).split(',') as FaultKind[];
  const postgresDownMs = Number(arg('postgres-down-s', '5')) * 1_000;
  console.log(
    `fault soak: ${minutes} min, a fault every ${faultEveryS} s (${faults.join(', ')}), Redis ${redis}, ` +
      `node ${process.version}, ` +
      `load average ${os.loadavg()[0]?.toFixed(2)} at start`,
  );
  const report = await runFaultSoak({
    durationMs: minutes * 60_000,
    faultEveryMs: faultEveryS * 1_000,
    faults,
    redis,
    postgresDownMs,
    workers: Number(arg('workers', '2')),
    log: (line) => console.log(line),
  });
  console.log(formatSoakReport(report));
  const broken = [
    report.publishedDiff.missing.length + report.publishedDiff.extra.length > 0 &&
      'published set differs from stored set',
    report.lost.length > 0 && `acknowledged URLs lost: ${report.lost.slice(0, 3).join(', ')}`,
    report.crawler.partialSets.length > 0 &&
      `partial sets served: ${report.crawler.partialSets.slice(0, 3).join(' | ')}`,
    Object.keys(report.stuckJobs).length > 0 && 'jobs left stuck',
    report.crashes.length > 0 && `${report.crashes.length} process(es) died by themselves`,
    Object.keys(report.clientErrors).some((key) => / 500\b/.test(key)) && 'a client was answered 500',
  ].filter(Boolean);
  console.log(`load average ${os.loadavg()[0]?.toFixed(2)} at the end`);
  if (broken.length > 0) {
    console.error(`FAILED: ${broken.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
