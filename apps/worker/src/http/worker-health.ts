// The worker's health probes on its HTTP listener. Ready: Postgres and Redis answer, and its
// BullMQ workers are running (not yet closing on shutdown) and consuming every queue they serve
// (JobWorkers.stalled: a process that has silently stopped taking jobs is not ready).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { RedisConnection } from '@sitemaps/jobs';
import type { Pool } from 'pg';
import {
  answerHealth,
  HEALTH_LEGACY_PATH,
  HEALTH_LIVE_PATH,
  HEALTH_READY_PATH,
  postgresCheck,
  Readiness,
  redisCheck,
  type HealthProbe,
} from '@sitemaps/health';
import { JobWorkers } from '../job-workers';
import { PG_POOL, REDIS } from '@sitemaps/core';
import { WorkerHttpServer } from './worker-http.server';

@Injectable()
export class WorkerHealth implements OnModuleInit {
  private readonly logger = new Logger('health');
  readonly readiness: Readiness;

  constructor(
    private readonly http: WorkerHttpServer,
    @Inject(PG_POOL) pool: Pool,
    @Inject(REDIS) redis: RedisConnection,
    jobs: JobWorkers,
  ) {
    this.readiness = new Readiness(
      {
        postgres: postgresCheck(pool),
        redis: redisCheck(redis),
        jobs: async () => {
          if (!jobs.running) throw new Error('job workers are closing');
          const stalled = jobs.stalled();
          if (stalled.length > 0)
            throw new Error(stalled.map(({ queue, reason }) => `not consuming ${queue}: ${reason}`).join('; '));
        },
      },
      {
        onChange: (report) =>
          this.logger.warn(report.ready ? 'ready' : `not ready: ${JSON.stringify(report.failures)}`),
      },
    );
  }

  onModuleInit(): void {
    const probe = (kind: HealthProbe) => async (_request: IncomingMessage, response: ServerResponse) => {
      const answer = await answerHealth(kind, this.readiness);
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    };
    this.http.get(HEALTH_LIVE_PATH, probe('live'));
    this.http.get(HEALTH_READY_PATH, probe('ready'));
    this.http.get(HEALTH_LEGACY_PATH, probe('ready'));
  }
}
