// The connection factory's cluster clients against real redis-server processes: a client that
// lost every node still ends when disconnected (BullMQ awaits that end), and BullMQ workers on
// every queue take jobs again after the master that serves the queues fails over, then close.
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@sitemaps/local-services';
import { startRedisCluster, waitUntil, type TestRedisCluster } from '@sitemaps/testing';
import { createRedisConnection, FailoverSafeCluster, type RedisConnection } from './connection';
import { QUEUE } from './queues';

const PREFIX = '{failover}';

function clusterConfig(ports: number[]) {
  return {
    redisUrl: 'redis://127.0.0.1:1',
    redisCluster: { nodes: ports.map((port) => ({ host: '127.0.0.1', port })), password: undefined },
  };
}

describe('a cluster client that has lost every node', () => {
  it('ends when disconnected while it waits to reconnect', async () => {
    // Nothing listens there: every attempt fails and the client waits for the next one.
    const client = createRedisConnection(clusterConfig([await freePort()]), 'worker');
    client.on('error', () => undefined);
    await waitUntil('the client to wait for its next attempt', async () => client.status === 'reconnecting', {
      intervalMs: 5,
    });
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    client.disconnect();
    await ended;
    expect(client.status).toBe('end');
  });

  it('tries again when disconnected to reconnect', async () => {
    const client = createRedisConnection(clusterConfig([await freePort()]), 'worker');
    client.on('error', () => undefined);
    await waitUntil('the client to wait for its next attempt', async () => client.status === 'reconnecting', {
      intervalMs: 5,
    });
    const attempts: string[] = [];
    client.on('connecting', () => attempts.push('connecting'));
    client.disconnect(true);
    await waitUntil('a new attempt', async () => attempts.length > 0);
    client.disconnect();
  });
});

describe('a connection attempt while the cluster says cluster_state:fail', () => {
  let cluster: TestRedisCluster;

  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());

  // As during a failover, before a replica has taken over. ioredis reads the slot map, then finds
  // the cluster not ok, drops the attempt for another and left its promise pending for ever:
  // BullMQ awaits that promise when it reconnects a worker's blocking client, and the worker stopped
  // taking jobs. Without FailoverSafeCluster's connect() this test waits until it times out.
  it('settles: it fails, and the client tries again by itself', async () => {
    const ports = cluster.nodes.split(',').map((node) => Number(node.split(':')[1]));
    const master = await cluster.masterOf(PREFIX);
    const killed = [master, ...(await cluster.replicasOf(master))];
    for (const port of killed) await cluster.kill(port);
    const survivor = ports.find((port) => !killed.includes(port)) as number;
    // A survivor saw the master and its replica fail: the cluster is not ok.
    const probe = new Redis({ host: '127.0.0.1', port: survivor, maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined);
    try {
      await waitUntil(
        'the cluster to say it fails',
        async () => String(await probe.call('CLUSTER', 'INFO')).includes('cluster_state:fail') || undefined,
      );
    } finally {
      probe.disconnect();
    }

    const client = new FailoverSafeCluster(
      ports.map((port) => ({ host: '127.0.0.1', port })),
      { lazyConnect: true, redisOptions: { maxRetriesPerRequest: null }, clusterRetryStrategy: () => 200 },
    );
    client.on('error', () => undefined);
    const attempts: string[] = [];
    client.on('connecting', () => attempts.push('connecting'));
    await expect(client.connect()).rejects.toThrow(/ended before ready/);
    await waitUntil('another attempt of its own', async () => attempts.length >= 2 || undefined);
    client.disconnect();
  }, 120_000);
});

describe('BullMQ workers on a Redis Cluster whose master fails over', () => {
  let cluster: TestRedisCluster;
  let workerConnection: RedisConnection | undefined;
  let producerConnection: RedisConnection | undefined;

  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 120_000);
  afterAll(async () => {
    producerConnection?.disconnect();
    workerConnection?.disconnect();
    await cluster?.stop();
  });

  it('take jobs from every queue again once a replica has taken over, and close', async () => {
    const config = clusterConfig(cluster.nodes.split(',').map((node) => Number(node.split(':')[1])));
    const connection = createRedisConnection(config, 'worker');
    workerConnection = connection;
    producerConnection = createRedisConnection(config, 'producer');
    const names = Object.values(QUEUE);
    const done = new Map<string, number>(names.map((name) => [name, 0]));
    // One connection shared by a worker per queue, as the worker app does; each blocks on a client of its own.
    const workers = names.map(
      (name) =>
        new Worker(name, async () => void done.set(name, (done.get(name) ?? 0) + 1), {
          connection,
          prefix: PREFIX,
          lockDuration: 3_000,
          stalledInterval: 1_500,
        }),
    );
    for (const worker of workers) worker.on('error', () => undefined);
    const queues = names.map((name) => new Queue(name, { connection: producerConnection!, prefix: PREFIX }));
    await Promise.all(queues.map((queue) => queue.add('before', {})));
    await waitUntil('a job done on every queue', async () => [...done.values()].every((n) => n === 1));

    const killedAt = Date.now();
    await cluster.failOver(await cluster.masterOf(PREFIX));
    await Promise.all(queues.map((queue) => queue.add('after', {})));
    await waitUntil('a job done on every queue after the failover', async () =>
      [...done.values()].every((n) => n === 2),
    );
    console.info(`jobs flow on every queue ${Date.now() - killedAt} ms after the master was killed`);

    await Promise.all(workers.map((worker) => worker.close()));
    await Promise.all(queues.map((queue) => queue.close()));
    expect(workers.filter((worker) => worker.isRunning())).toEqual([]);
  }, 180_000);
});
