// What the api wires beyond CoreModule's shared clients: its producers, rate limiters, readiness
// and read routing. Each area's routes and services are listed in api.module.
import { Inject, Logger, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG, MAINTENANCE_QUEUE, PG_POOL, REDIS } from '@sitemaps/core';
import { postgresCheck, Readiness, redisCheck } from '@sitemaps/health';
import { SiteFilesProducer, VerificationProducer, type RedisConnection } from '@sitemaps/jobs';
import type { ApiLimits } from './api.limits';
import {
  API_LIMITS,
  AUTH_FAILURE_LIMITER,
  RATE_LIMITER,
  READ_REPLICA,
  SITE_FILES_PRODUCER,
  TENANT_RATE_LIMITER,
  VERIFICATION_PRODUCER,
} from './api.tokens';
import type { ReplicaClients } from './read-routing.providers';
import { sharedLimiter } from './http/shared-limiter';

/** Closes what the providers below made; CoreModule closes the shared clients after it. */
class ApiClients implements OnApplicationShutdown {
  constructor(
    @Inject(VERIFICATION_PRODUCER) private readonly verification: VerificationProducer,
    @Inject(READ_REPLICA) private readonly replica: ReplicaClients | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.verification.close();
    await this.replica?.prisma.$disconnect();
    await this.replica?.pool.end();
  }
}

export const PRODUCER_PROVIDERS: Provider[] = [
  {
    provide: SITE_FILES_PRODUCER,
    inject: [MAINTENANCE_QUEUE],
    useFactory: (queue: Queue) => new SiteFilesProducer(queue),
  },
  {
    provide: VERIFICATION_PRODUCER,
    inject: [CONFIG, REDIS],
    useFactory: (config: AppConfig, redis: RedisConnection) =>
      new VerificationProducer(VerificationProducer.queue(redis, config.queuePrefix)),
  },
  ApiClients,
];

export const LIMITER_PROVIDERS: Provider[] = [
  {
    provide: RATE_LIMITER,
    inject: [CONFIG, REDIS, API_LIMITS],
    useFactory: (config: AppConfig, redis: RedisConnection, { rateLimit }: ApiLimits) =>
      sharedLimiter(redis, `${config.queuePrefix}:rate-limit`, rateLimit),
  },
  {
    provide: TENANT_RATE_LIMITER,
    inject: [CONFIG, REDIS, API_LIMITS],
    useFactory: (config: AppConfig, redis: RedisConnection, { rateLimit, tenantRateLimit }: ApiLimits) =>
      sharedLimiter(redis, `${config.queuePrefix}:tenant-rate-limit`, {
        points: tenantRateLimit.points,
        durationSeconds: rateLimit.durationSeconds,
      }),
  },
  {
    provide: AUTH_FAILURE_LIMITER,
    inject: [CONFIG, REDIS, API_LIMITS],
    useFactory: (config: AppConfig, redis: RedisConnection, { authFailures }: ApiLimits) =>
      sharedLimiter(redis, `${config.queuePrefix}:auth-failures`, authFailures),
  },
];

export const READINESS_PROVIDER: Provider = {
  provide: Readiness,
  inject: [PG_POOL, REDIS],
  useFactory: (pool: Pool, redis: RedisConnection) => {
    const logger = new Logger('health');
    return new Readiness(
      { postgres: postgresCheck(pool), redis: redisCheck(redis) },
      { onChange: (report) => logger.warn(report.ready ? 'ready' : `not ready: ${JSON.stringify(report.failures)}`) },
    );
  },
};
