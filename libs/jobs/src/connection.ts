import type { AppConfig } from '@sitemaps/config';
import { Cluster, Redis, type ClusterNode, type ClusterOptions, type RedisOptions } from 'ioredis';

/** A Redis connection: one server, or a Redis Cluster (REDIS_CLUSTER_NODES). Both run every command we use. */
export type RedisConnection = Redis | Cluster;

export type RedisRole = 'worker' | 'producer' | 'subscriber';

/**
 * The one place Redis connections are made, for BullMQ, rate limits, announcements and locks alike.
 * Workers block on Redis and must retry forever (BullMQ requires maxRetriesPerRequest: null);
 * producers sit in request paths and should fail fast instead of hanging a request.
 */
export function createRedisConnection(
  config: Pick<AppConfig, 'redisUrl' | 'redisCluster'>,
  role: RedisRole,
): RedisConnection {
  const options: RedisOptions =
    role === 'producer'
      ? { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 5_000 }
      : { maxRetriesPerRequest: null };
  if (!config.redisCluster) return new Redis(config.redisUrl, { ...options, lazyConnect: false });
  return new FailoverSafeCluster(config.redisCluster.nodes, {
    redisOptions: { ...options, password: config.redisCluster.password },
    // While a master fails over, its slots answer CLUSTERDOWN or refuse connections: retry
    // soon, and refresh the slot map often enough to find the promoted replica.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    slotsRefreshTimeout: 2_000,
    slotsRefreshInterval: 2_000,
    // Producers give up once a failover has taken longer than a request should wait.
    maxRedirections: role === 'producer' ? 16 : 64,
    clusterRetryStrategy: (times) => Math.min(100 * times, 2_000),
  });
}

/** The two steps ioredis's `Cluster.disconnect()` runs itself when it has never connected. */
interface ClusterInternals {
  setStatus(status: 'close'): void;
  handleCloseEvent(): void;
}

/**
 * A cluster client whose `disconnect()` always ends in `end` (or, asked to reconnect, in a new
 * attempt). ioredis moves a cluster client to `end` when its last node connection closes. A client
 * that lost every node during a failover and waits for its next attempt (`reconnecting`, no node
 * connections) has none left to close: `disconnect()` cancels the attempt and leaves it in
 * `disconnecting` for good. BullMQ disconnects a worker's blocking client and awaits `end` when its
 * blocking wait overruns and when the worker closes: such a worker stops taking jobs from its queue
 * and its `close()` never returns (one way to the symptoms workers showed after failovers under load). Here an idle client finishes the way
 * ioredis finishes one that never connected. `duplicate()` (BullMQ's blocking clients) keeps the class.
 */
export class FailoverSafeCluster extends Cluster {
  constructor(
    private readonly startupNodeList: ClusterNode[],
    options: ClusterOptions,
  ) {
    super(startupNodeList, options);
  }

  override disconnect(reconnect = false): void {
    // Asked to reconnect while it waits for an attempt, ioredis keeps that attempt: nothing to finish.
    const stranded = this.status === 'disconnecting' || (this.status === 'reconnecting' && !reconnect);
    const idle = stranded && this.nodes().length === 0;
    super.disconnect(reconnect);
    if (!idle) return;
    const internals = this as unknown as ClusterInternals;
    internals.setStatus('close');
    internals.handleCloseEvent();
  }

  /**
   * ioredis's promise of a connection attempt that settles. Once the slot map is read, ioredis
   * stops listening for the attempt's failure and checks `CLUSTER INFO`; while a master fails over
   * the cluster says `cluster_state:fail`, so ioredis drops the attempt and schedules another, and
   * the first attempt's promise never settles. BullMQ awaits that promise when a worker's blocking
   * client is reconnected (after its blocking wait overran, which a loaded machine makes common):
   * that worker waits forever and takes no more jobs from its queue. Here the attempt rejects once
   * the client leaves it (closed, reconnecting or ended), and BullMQ retries as for any failure.
   */
  override connect(): Promise<void> {
    const attempt = super.connect();
    return new Promise<void>((resolve, reject) => {
      const left = () => {
        // Status events are emitted on the next tick: one from before this attempt began (the
        // `close` of a disconnect just made) finds the client connecting still, and is not the end.
        if (!['close', 'reconnecting', 'end', 'disconnecting'].includes(this.status)) return;
        settle(() => reject(new Error(`Redis Cluster connection attempt ended before ready (${this.status})`)));
      };
      const settle = (finish: () => void) => {
        this.off('close', left).off('end', left);
        finish();
      };
      this.on('close', left).on('end', left);
      attempt.then(
        () => settle(resolve),
        (error: unknown) => settle(() => reject(error)),
      );
    });
  }

  override duplicate(overrideStartupNodes: ClusterNode[] = [], overrideOptions: ClusterOptions = {}): Cluster {
    const startupNodes = overrideStartupNodes.length > 0 ? overrideStartupNodes : this.startupNodeList;
    return new FailoverSafeCluster(startupNodes, { ...this.options, ...overrideOptions });
  }
}
