// The probes of the three apps, each in its own process as production runs them: live while the
// process runs; ready only while Postgres and Redis answer, and for the worker, only while it
// takes the jobs of the queues it serves. Redis here is a redis-server of the test's own, stopped
// and started again; the machine's shared one is never touched.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startRedisServer, type RedisServer } from '@sitemaps/local-services';
import { createTestDatabase, uniqueQueuePrefix, waitUntil, type TestDatabase } from '@sitemaps/testing';
import { spawnApi, type ApiProcess } from './support/api-process';
import { spawnPublic, type PublicProcess } from './support/public-process';
import { spawnWorker, type WorkerProcess } from './support/worker-process';

async function probe(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe('health probes', () => {
  let db: TestDatabase;
  let redis: RedisServer;
  let redisDir: string;
  let api: ApiProcess;
  let worker: WorkerProcess;
  let publicServer: PublicProcess;
  let prefix: string;
  const apps = () => ({ api: api.url, worker: worker.httpUrl, public: publicServer.url });

  beforeAll(async () => {
    db = await createTestDatabase();
    redisDir = mkdtempSync(path.join(tmpdir(), 'health-redis-'));
    redis = await startRedisServer({ port: await freePort(), dir: redisDir });
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: (prefix = uniqueQueuePrefix('health')),
      LOG_LEVEL: 'warn',
      INDEXNOW_ENDPOINTS: 'off',
      PUBLIC_WORKERS: '1',
      WORKER_STALL_MS: '2000',
    };
    [api, worker, publicServer] = await Promise.all([spawnApi(env), spawnWorker(env), spawnPublic(env)]);
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop(), publicServer?.stop()]);
    await redis?.stop();
    rmSync(redisDir, { recursive: true, force: true });
    await db?.drop();
  });

  it('answers live and ready on every app, /health as ready', async () => {
    for (const [app, url] of Object.entries(apps())) {
      expect(await probe(`${url}/health/live`), app).toEqual({ status: 200, body: { status: 'ok' } });
      const ready = await probe(`${url}/health/ready`);
      expect(ready, app).toMatchObject({
        status: 200,
        body: { status: 'ok', checks: { postgres: 'ok', redis: 'ok' } },
      });
      expect(await probe(`${url}/health`), app).toEqual(ready);
    }
    expect((await probe(`${worker.httpUrl}/health/ready`)).body).toEqual({
      status: 'ok',
      checks: { postgres: 'ok', redis: 'ok', jobs: 'ok' },
    });
    expect((await fetch(`${worker.httpUrl}/nothing-here`)).status).toBe(404);
    // The public server answers probes whatever the Host, before any site is looked up.
    expect((await probe(`${publicServer.url}/health/ready`, { headers: { host: 'unknown.example' } })).status).toBe(
      200,
    );
    expect((await fetch(`${publicServer.url}/health/ready`, { method: 'HEAD' })).status).toBe(200);
  });

  it('goes unready while Redis is down, stays live, and is ready again once Redis is back', async () => {
    await redis.stop();
    for (const [app, url] of Object.entries(apps())) {
      const down = await waitUntil(`${app} unready without Redis`, async (seen) => {
        const ready = seen(await probe(`${url}/health/ready`));
        return ready.status === 503 && ready;
      });
      expect(down.body, app).toMatchObject({ status: 'unavailable', checks: { postgres: 'ok', redis: 'down' } });
      expect((await probe(`${url}/health/live`)).status, app).toBe(200);
    }

    redis = await startRedisServer({ port: redis.port, dir: redisDir });
    for (const [app, url] of Object.entries(apps())) {
      await waitUntil(`${app} ready again`, async (seen) => seen((await probe(`${url}/health/ready`)).status) === 200);
    }
  });

  it('makes the worker unready while it takes no job from a queue that has some, and ready once it does', async () => {
    // A worker that should consume and does not, with Redis and Postgres answering its probes: here
    // Redis refuses the worker's blocking wait (an ACL), so BullMQ's loop waits again and again and
    // never fetches a job, as a loop stuck after a failover would. The worker's own server: no one else uses it.
    const webhooks = new Queue('webhook', { connection: { url: redis.url }, prefix });
    const admin = new Redis(redis.url);
    try {
      await admin.call('ACL', 'SETUSER', 'default', '-bzpopmin');
      // Once its blocking wait from before the ACL has ended, the worker fails each new one.
      await waitUntil('the webhook worker refused its blocking wait', async () =>
        /"queue":"webhook".*NOPERM/.test(worker.output()),
      );
      // A delivery that no longer exists: the worker skips it once it takes it.
      await webhooks.add('deliver-webhook', { v: 1, deliveryId: '00000000-0000-4000-8000-000000000000' });
      const stalled = await waitUntil('the worker unready for the queue it does not consume', async (seen) => {
        const ready = seen(await probe(`${worker.httpUrl}/health/ready`));
        return ready.status === 503 && ready;
      });
      expect(stalled.body).toEqual({ status: 'unavailable', checks: { postgres: 'ok', redis: 'ok', jobs: 'down' } });
      expect(worker.output()).toContain('not consuming queue webhook');
      expect((await probe(`${worker.httpUrl}/health/live`)).status).toBe(200);

      await admin.call('ACL', 'SETUSER', 'default', '+bzpopmin');
      await waitUntil('the job taken', async () => (await webhooks.getJobCounts('wait')).wait === 0);
      await waitUntil(
        'the worker ready again',
        async (seen) => seen((await probe(`${worker.httpUrl}/health/ready`)).status) === 200,
      );
    } finally {
      await admin.call('ACL', 'SETUSER', 'default', '+bzpopmin').catch(() => undefined);
      admin.disconnect();
      await webhooks.close();
    }
  }, 240_000);
});
