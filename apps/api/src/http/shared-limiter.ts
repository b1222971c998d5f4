import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RedisConnection } from '@sitemaps/jobs';

/** Shared by every API replica through Redis; while Redis is away, each process limits on its own rather than failing requests. */
export function sharedLimiter(
  redis: RedisConnection,
  keyPrefix: string,
  window: { points: number; durationSeconds: number },
): RateLimiterRedis {
  const options = { points: window.points, duration: window.durationSeconds };
  return new RateLimiterRedis({
    ...options,
    storeClient: redis,
    keyPrefix,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}
