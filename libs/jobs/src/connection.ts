import type { AppConfig } from '@sitemaps/config';
import { Cluster, Redis, type RedisOptions } from 'ioredis';

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
  return new Cluster(config.redisCluster.nodes, {
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
