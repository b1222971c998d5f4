import { Redis, type RedisOptions } from 'ioredis';

/**
 * Workers block on Redis and must retry forever (BullMQ requires maxRetriesPerRequest: null);
 * producers sit in request paths and should fail fast instead of hanging a request.
 */
export function createRedisConnection(url: string, role: 'worker' | 'producer' | 'subscriber'): Redis {
  const options: RedisOptions =
    role === 'producer'
      ? { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 5_000 }
      : { maxRetriesPerRequest: null };
  return new Redis(url, { ...options, lazyConnect: false });
}
