import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, startRedisServer } from '@sitemaps/local-services';
import { testRedisUrl, waitUntil } from '@sitemaps/testing';
import { answerHealth, healthProbeOf } from './health.routes';
import { postgresCheck, Readiness, redisCheck, type ReadinessReport } from './readiness';

describe('Readiness', () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('is ready while the real Postgres and Redis answer', async () => {
    const pool = new Pool({ connectionString: inject('postgresUrl'), max: 1 });
    const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
    closers.push(
      () => pool.end(),
      async () => redis.disconnect(),
    );
    await redis.ping();
    const report = await new Readiness({ postgres: postgresCheck(pool), redis: redisCheck(redis) }).report();
    expect(report).toEqual({ ready: true, checks: { postgres: 'ok', redis: 'ok' }, failures: {} });
  });

  it('names what is down, and why, when Postgres refuses and Redis has gone away', async () => {
    const closedPort = await freePort();
    const pool = new Pool({ connectionString: `postgres://root@127.0.0.1:${closedPort}/none`, max: 1 });
    pool.on('error', () => undefined);
    const dir = mkdtempSync(path.join(tmpdir(), 'readiness-redis-'));
    const server = await startRedisServer({ port: await freePort(), dir });
    const redis = new Redis(server.url, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
    redis.on('error', () => undefined);
    closers.push(
      () => pool.end(),
      async () => redis.disconnect(),
      async () => rmSync(dir, { recursive: true, force: true }),
    );
    await redis.ping();
    await server.kill();
    await waitUntil('the client to see Redis gone', () => redis.status !== 'ready');

    const changes: ReadinessReport[] = [];
    const readiness = new Readiness(
      { postgres: postgresCheck(pool), redis: redisCheck(redis) },
      { cacheMs: 0, onChange: (r) => changes.push(r) },
    );
    const report = await readiness.report();
    expect(report.ready).toBe(false);
    expect(report.checks).toEqual({ postgres: 'down', redis: 'down' });
    expect(report.failures.postgres).toMatch(/ECONNREFUSED/);
    expect(report.failures.redis).toMatch(/connection/);
    expect(changes).toHaveLength(1);

    const answer = await answerHealth('ready', readiness);
    expect(answer.status).toBe(503);
    // Why stays in the log: the body names the checks only.
    expect(JSON.parse(answer.body)).toEqual({ status: 'unavailable', checks: { postgres: 'down', redis: 'down' } });
    expect((await answerHealth('live', readiness)).status).toBe(200);
  });

  it('counts a check that never answers as down after the timeout, and shares one run between callers', async () => {
    let runs = 0;
    const readiness = new Readiness(
      {
        hangs: () => {
          runs += 1;
          return new Promise(() => undefined);
        },
      },
      { timeoutMs: 50 },
    );
    const [first, second] = await Promise.all([readiness.report(), readiness.report()]);
    expect(first).toBe(second);
    expect(first.failures).toEqual({ hangs: 'no answer within 50 ms' });
    // Within the cache period, no new run.
    await readiness.report();
    expect(runs).toBe(1);
  });

  it('maps paths to probes, /health being the older name of ready', () => {
    expect(healthProbeOf('/health/live')).toBe('live');
    expect(healthProbeOf('/health/ready?verbose=1')).toBe('ready');
    expect(healthProbeOf('/health')).toBe('ready');
    expect(healthProbeOf('/health/')).toBeUndefined();
    expect(healthProbeOf('/healthz')).toBeUndefined();
  });
});
