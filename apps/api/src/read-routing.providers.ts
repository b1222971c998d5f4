// CoreModule provides the primary's repositories: every write uses them. Reads of a tenant's data
// ask the ReadRouter made here, which may answer with a replica's.
import { Logger } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import {
  createPgPool,
  createPrismaClient,
  createRepositories,
  ReadRouter,
  type PrismaClient,
  type Repositories,
} from '@sitemaps/data';
import { RedisTenantWritePositions, type RedisConnection } from '@sitemaps/jobs';
import type { PlatformMetrics } from '@sitemaps/observability';
import type { Pool } from 'pg';
import { READ_REPLICA } from './api.tokens';
import { PG_POOL, REDIS, REPOSITORIES } from '@sitemaps/core';

export interface ReplicaClients {
  prisma: PrismaClient;
  pool: Pool;
}

/**
 * With DATABASE_READ_URL, the replica's clients and a ReadRouter that sends a tenant's reads there
 * once it has replayed the tenant's last write; without, a ReadRouter that always answers with
 * the primary's repositories and runs no query.
 */
export function readRoutingProviders(config: AppConfig, metrics: PlatformMetrics) {
  const replicaUrl = config.databaseReadUrl;
  return [
    {
      provide: READ_REPLICA,
      useFactory: (): ReplicaClients | null => {
        if (!replicaUrl) return null;
        const pool = createPgPool(replicaUrl);
        metrics.observePool('api-replica', pool);
        return { prisma: createPrismaClient(replicaUrl), pool };
      },
    },
    {
      provide: ReadRouter,
      inject: [REPOSITORIES, PG_POOL, READ_REPLICA, REDIS],
      useFactory: (repositories: Repositories, pool: Pool, replica: ReplicaClients | null, redis: RedisConnection) => {
        if (!replica) return new ReadRouter({ repositories, pool });
        const logger = new Logger('read-replica');
        let loggedAt = 0;
        return new ReadRouter(
          { repositories, pool },
          {
            repositories: createRepositories(replica.prisma, replica.pool),
            pool: replica.pool,
            positions: new RedisTenantWritePositions(redis, config.queuePrefix),
            // Each failing request would say the same: once per 10 s is enough to see it.
            onError: (error) => {
              if (Date.now() - loggedAt < 10_000) return;
              loggedAt = Date.now();
              logger.warn(`reads fall back to the primary: ${error instanceof Error ? error.message : String(error)}`);
            },
          },
        );
      },
    },
  ];
}
