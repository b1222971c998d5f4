// A real Redis Cluster for tests: six redis-server processes (three masters, three replicas) in
// temporary directories on spare ports, joined with `redis-cli --cluster create`. Fault tests
// kill a master and wait for its replica to take over, as an operator's cluster would.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort, startRedisServer, type RedisServer } from '@sitemaps/local-services';
import { waitUntil } from './wait-until';

const execFileAsync = promisify(execFile);

export interface TestRedisCluster {
  /** `127.0.0.1:port,…` for REDIS_CLUSTER_NODES. */
  nodes: string;
  /** The port of the master that serves `key`'s slot now. */
  masterOf(key: string): Promise<number>;
  /** SIGKILLs the node on `port` and waits until a replica serves its slots and the cluster is ok again. */
  failOver(port: number): Promise<{ newMaster: number }>;
  /** The ports of the replicas of the master on `port`. */
  replicasOf(port: number): Promise<number[]>;
  /** SIGKILLs the node on `port` and waits for nothing: with a master and its replicas gone the cluster fails. */
  kill(port: number): Promise<void>;
  /**
   * Starts a killed node again on its port and files; it rejoins (a failed-over master as a
   * replica of the node that took its slots), and this waits until every node is ok and in sync.
   */
  restart(port: number): Promise<void>;
  stop(): Promise<void>;
}

interface NodeLine {
  id: string;
  port: number;
  flags: string[];
  masterId: string;
  slots: [number, number][];
}

/** `--cluster-node-timeout`: how long a master may be silent before its replica takes over. */
const NODE_TIMEOUT_MS = 1_000;

export async function startRedisCluster(opts: { masters?: number } = {}): Promise<TestRedisCluster> {
  const masters = opts.masters ?? 3;
  const dir = await mkdtemp(path.join(tmpdir(), 'redis-cluster-'));
  const servers = new Map<number, RedisServer>();
  const busPorts = new Map<number, number>();
  const startNode = (port: number, busPort: number) =>
    startRedisServer({
      port,
      dir: path.join(dir, String(port)),
      args: [
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        String(NODE_TIMEOUT_MS),
        '--cluster-port',
        String(busPort),
        // A replica takes over however long it was cut off: the test kills masters on purpose.
        '--cluster-replica-validity-factor',
        '0',
      ],
    });
  const allReady = (ports: number[]) =>
    waitUntil(
      'the cluster to be ok on every node with every replica in sync',
      async () => {
        for (const port of ports) if (!(await nodeReady(port, ports.length))) return undefined;
        return true;
      },
      { timeoutMs: 60_000 },
    );
  const stop = async () => {
    await Promise.all([...servers.values()].map((server) => server.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters * 2; i++) {
      // The bus port is set apart: the default (port + 10000) may be taken or past 65535.
      const port = await freePort();
      const busPort = await freePort();
      busPorts.set(port, busPort);
      const server = await startNode(port, busPort);
      servers.set(port, server);
    }
    const ports = [...servers.keys()];
    await execFileAsync('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await allReady(ports);
  } catch (error) {
    await stop();
    throw error;
  }

  const alive = () => [...servers.keys()];
  return {
    nodes: alive()
      .map((port) => `127.0.0.1:${port}`)
      .join(','),
    async masterOf(key: string) {
      return withNode(alive()[0] as number, async (redis) => {
        const slot = Number(await redis.call('CLUSTER', 'KEYSLOT', key));
        const owner = nodeLines(String(await redis.call('CLUSTER', 'NODES'))).find(
          (node) =>
            node.flags.includes('master') &&
            !node.flags.includes('fail') &&
            node.slots.some(([from, to]) => slot >= from && slot <= to),
        );
        if (!owner) throw new Error(`no master serves slot ${slot}`);
        return owner.port;
      });
    },
    async failOver(port: number) {
      const server = servers.get(port);
      if (!server) throw new Error(`no cluster node on port ${port}`);
      const slots = await withNode(
        port,
        async (redis) =>
          nodeLines(String(await redis.call('CLUSTER', 'NODES'))).find((node) => node.port === port)?.slots ?? [],
      );
      await server.kill();
      servers.delete(port);
      const survivor = alive()[0] as number;
      const newMaster = await waitUntil(
        `a replica of 127.0.0.1:${port} to take over its slots`,
        () =>
          withNode(survivor, async (redis) => {
            const info = String(await redis.call('CLUSTER', 'INFO'));
            if (!info.includes('cluster_state:ok')) return undefined;
            const [from] = slots[0] ?? [];
            const owner = nodeLines(String(await redis.call('CLUSTER', 'NODES'))).find(
              (node) =>
                node.port !== port &&
                node.flags.includes('master') &&
                node.slots.some(([a, b]) => from !== undefined && from >= a && from <= b),
            );
            return owner?.port;
          }),
        { timeoutMs: 60_000 },
      );
      return { newMaster };
    },
    async replicasOf(port: number) {
      return withNode(alive()[0] as number, async (redis) => {
        const lines = nodeLines(String(await redis.call('CLUSTER', 'NODES')));
        const master = lines.find((node) => node.port === port);
        return lines.filter((node) => master && node.masterId === master.id).map((node) => node.port);
      });
    },
    async kill(port: number) {
      const server = servers.get(port);
      if (!server) throw new Error(`no cluster node on port ${port}`);
      await server.kill();
      servers.delete(port);
    },
    async restart(port: number) {
      const busPort = busPorts.get(port);
      if (busPort === undefined || servers.has(port)) throw new Error(`no killed cluster node on port ${port}`);
      servers.set(port, await startNode(port, busPort));
      await waitUntil(
        `127.0.0.1:${port} to rejoin as a replica in sync`,
        () =>
          withNode(port, async (redis) => {
            const replication = String(await redis.call('INFO', 'replication'));
            return replication.includes('role:slave') && replication.includes('master_link_status:up');
          }),
        { timeoutMs: 60_000 },
      );
      await allReady([...busPorts.keys()]);
    },
    stop,
  };
}

async function nodeReady(port: number, nodeCount: number): Promise<boolean> {
  return withNode(port, async (redis) => {
    const info = String(await redis.call('CLUSTER', 'INFO'));
    if (!info.includes('cluster_state:ok') || !info.includes(`cluster_known_nodes:${nodeCount}`)) return false;
    const replication = String(await redis.call('INFO', 'replication'));
    return replication.includes('role:master') || replication.includes('master_link_status:up');
  });
}

async function withNode<T>(port: number, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/** `CLUSTER NODES`: `<id> <ip:port@bus> <flags> <master id> <ping> <pong> <epoch> <link> <slot>…` */
function nodeLines(text: string): NodeLine[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id = '', address = '', flags = '', masterId = '', , , , , ...slots] = line.trim().split(' ');
      return {
        id,
        port: Number(address.split('@')[0]?.split(':').pop()),
        flags: flags.split(','),
        masterId,
        slots: slots
          .filter((slot) => !slot.startsWith('['))
          .map((slot) => {
            const [from, to = from] = slot.split('-');
            return [Number(from), Number(to)] as [number, number];
          }),
      };
    });
}
