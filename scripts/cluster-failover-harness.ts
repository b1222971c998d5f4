// Redis Cluster failovers under CPU load, round after round: the harness that reproduced workers
// that stop taking jobs after a failover (docs/fault-soak.md). Each round starts a cluster, runs a
// BullMQ worker per queue on one shared FailoverSafeCluster connection (as the worker app does)
// while jobs are added to every queue, SIGKILLs the master serving the queues, and then requires
// every queue to drain. A queue that does not drain is reported with its worker's state, and the
// run exits 3. Not a CI test: it takes minutes and found the fault in about one round in ten.
//   node -r @swc-node/register scripts/cluster-failover-harness.ts [rounds] [cpu-burners]
import { spawn, type ChildProcess } from 'node:child_process';
import { Queue, Worker } from 'bullmq';
import { createRedisConnection, type RedisConnection } from '@sitemaps/jobs';
// The file, not the lib's index: the index pulls in vitest.
import { startRedisCluster } from '../libs/testing/src/redis-cluster';

const QUEUES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const PREFIX = '{harness}';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Instrumented {
  inWaitForJob: number;
  waitForJobSince: number;
}

/** Counts BullMQ's waits for a job in flight and since when: a stuck worker shows one for minutes. */
function instrument(worker: Worker): Instrumented {
  const seen: Instrumented = { inWaitForJob: 0, waitForJobSince: 0 };
  const internals = worker as unknown as { waitForJob: (...args: unknown[]) => Promise<unknown> };
  const original = internals.waitForJob.bind(worker);
  internals.waitForJob = async (...args) => {
    seen.inWaitForJob += 1;
    seen.waitForJobSince = Date.now();
    try {
      return await original(...args);
    } finally {
      seen.inWaitForJob -= 1;
    }
  };
  return seen;
}

async function round(n: number): Promise<boolean> {
  const cluster = await startRedisCluster();
  const config = {
    redisUrl: 'redis://127.0.0.1:1',
    redisCluster: {
      nodes: cluster.nodes.split(',').map((node) => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) })),
      password: undefined,
    },
  };
  const connections: RedisConnection[] = [];
  const connect = (role: 'worker' | 'producer') => {
    const connection = createRedisConnection(config, role);
    connection.on('error', () => undefined);
    connections.push(connection);
    return connection;
  };
  const shared = connect('worker');
  const done = new Map<string, number>(QUEUES.map((name) => [name, 0]));
  const workers = QUEUES.map((name) => {
    const worker = new Worker(
      name,
      async () => {
        done.set(name, (done.get(name) ?? 0) + 1);
        await sleep(20);
      },
      { connection: shared, prefix: PREFIX, concurrency: 4, lockDuration: 3_000, stalledInterval: 1_500 },
    );
    worker.on('error', () => undefined);
    return { name, worker, seen: instrument(worker) };
  });
  const producer = connect('producer');
  const queues = QUEUES.map((name) => new Queue(name, { connection: producer, prefix: PREFIX }));
  let loading = true;
  const load = (async () => {
    while (loading) {
      await Promise.all(queues.map((queue) => queue.add('j', {}, { removeOnComplete: true }).catch(() => undefined)));
      await sleep(100);
    }
  })();
  try {
    await sleep(3_000);
    const started = Date.now();
    await cluster.failOver(await cluster.masterOf(PREFIX));
    console.log(`round ${n}: master failed over in ${Date.now() - started} ms`);
    await sleep(15_000);
    loading = false;
    await load;
    // Counted on a connection of its own, so a stuck producer cannot pass for a stuck worker.
    const counting = connect('worker');
    const counted = QUEUES.map((name) => new Queue(name, { connection: counting, prefix: PREFIX }));
    const deadline = Date.now() + 90_000;
    let left: string[] = [];
    do {
      left = [];
      for (const [i, queue] of counted.entries()) {
        const waiting = await queue.getWaitingCount().catch(() => undefined);
        if (waiting !== 0) left.push(`${QUEUES[i]}: ${waiting ?? 'unknown'} waiting`);
      }
      if (left.length > 0) await sleep(2_000);
    } while (left.length > 0 && Date.now() < deadline);
    if (left.length === 0) {
      console.log(`round ${n}: every queue drained; jobs done ${JSON.stringify(Object.fromEntries(done))}`);
      return true;
    }
    console.log(`round ${n}: NOT DRAINED ${left.join(', ')}`);
    for (const { name, worker, seen } of workers)
      console.log(name, {
        done: done.get(name),
        running: worker.isRunning(),
        inWaitForJob: seen.inWaitForJob,
        waitForJobForMs: seen.inWaitForJob ? Date.now() - seen.waitForJobSince : 0,
      });
    return false;
  } finally {
    loading = false;
    await Promise.race([Promise.all(workers.map(({ worker }) => worker.close())), sleep(20_000)]);
    for (const connection of connections) connection.disconnect();
    await cluster.stop();
  }
}

async function main(): Promise<number> {
  const rounds = Number(process.argv[2] ?? 5);
  const burners: ChildProcess[] = Array.from({ length: Number(process.argv[3] ?? 4) }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  try {
    let stuck = 0;
    for (let n = 0; n < rounds; n++) if (!(await round(n))) stuck += 1;
    console.log(`${rounds} rounds, ${stuck} with a queue not drained`);
    return stuck === 0 ? 0 : 3;
  } finally {
    for (const burner of burners) burner.kill('SIGKILL');
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
