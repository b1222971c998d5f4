// Boots the three apps in this process against the test's own database and queue prefix: real
// HTTP servers on ephemeral ports and real BullMQ workers, as in production but without forks.
import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { developmentSiteVerification, parseConfig, type AppConfig } from '@sitemaps/config';
import { createTestDatabase, testRedisUrl, uniqueQueuePrefix, type TestDatabase } from '@sitemaps/testing';
import { createApiApp } from '../../apps/api/src/api.app';
import { createPublicApp } from '../../apps/public/src/public.app';
import { createWorkerApp } from '../../apps/worker/src/worker.app';

export const ADMIN_KEY = 'test-admin-key-0123456789';

export interface Platform {
  config: AppConfig;
  /** The environment the apps were configured from, for workers started as processes. */
  env: Record<string, string>;
  db: TestDatabase;
  apiUrl: string;
  publicUrl: string;
  close(): Promise<void>;
}

export async function startPlatform(
  overrides: Record<string, string> = {},
  opts: { worker?: boolean; /** Instead of a new one; dropped on close all the same. */ db?: TestDatabase } = {},
): Promise<Platform> {
  const db = opts.db ?? (await createTestDatabase());
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: testRedisUrl(),
    ADMIN_API_KEY: ADMIN_KEY,
    QUEUE_PREFIX: uniqueQueuePrefix('e2e'),
    LOG_LEVEL: 'warn',
    BUILD_QUIET_MS: '100',
    // Tests never talk to the real IndexNow; the IndexNow tests point this at a local server.
    INDEXNOW_ENDPOINTS: 'off',
    // Every request of a test file comes from 127.0.0.1, and access tests try many revoked keys;
    // the failed-authentication limit has its own test with its own small limit.
    API_AUTH_FAILURE_POINTS: '100000',
    // Test files run in parallel: each worker's HTTP listener on a port of its own.
    WORKER_HTTP_PORT: '0',
    // Development mode unless the test (or whoever runs it) says otherwise: sites verified on creation.
    SITE_VERIFICATION: developmentSiteVerification(),
    ...overrides,
  };
  const config = parseConfig(env);
  const api = await createApiApp(config);
  await api.listen(0, '127.0.0.1');
  const publicApp = await createPublicApp(config);
  await publicApp.listen(0, '127.0.0.1');
  const worker = opts.worker === false ? undefined : await createWorkerApp(config);
  return {
    config,
    env,
    db,
    apiUrl: await urlOf(api),
    publicUrl: await urlOf(publicApp),
    async close() {
      await worker?.close();
      await publicApp.close();
      await api.close();
      await db.drop();
    },
  };
}

async function urlOf(app: NestFastifyApplication | INestApplicationContext): Promise<string> {
  return (await (app as NestFastifyApplication).getUrl()).replace('[::1]', '127.0.0.1');
}
