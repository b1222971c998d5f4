import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, REDACTED } from './logger';
import { PlatformMetrics } from './platform.metrics';

function capture(): { sink: Writable; lines: () => Record<string, any>[] } {
  const chunks: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk.toString()), done()) });
  return {
    sink,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, any>),
  };
}

describe('log format', () => {
  it('writes the same keys in every app: level by name, app, pid, msg', () => {
    const { sink, lines } = capture();
    pino(loggerOptions('worker', 'info'), sink).warn({ queue: 'build' }, 'hello');
    expect(lines()[0]).toMatchObject({
      level: 'warn',
      app: 'worker',
      pid: process.pid,
      queue: 'build',
      msg: 'hello',
      time: expect.any(Number),
    });
  });

  it('redacts keys and secrets wherever a request, a config or a payload would carry them', () => {
    const { sink, lines } = capture();
    const logger = pino(loggerOptions('api', 'info'), sink);
    const secret = 'sk_live_0123456789abcdef0123';
    logger.info(
      {
        req: {
          method: 'GET',
          headers: { authorization: `Bearer ${secret}`, cookie: `s=${secret}`, 'x-api-key': secret, host: 'a' },
        },
      },
      'request',
    );
    logger.info({ config: { api: { adminApiKey: secret, port: 3000 } } }, 'config');
    logger.info(
      { apiKey: secret, key: { apiKey: secret }, webhook: { secret, url: 'https://hooks.example.com' }, token: secret },
      'payload',
    );
    const text = JSON.stringify(lines());
    expect(text).not.toContain(secret);
    const [request, config, payload] = lines();
    expect(request?.req.headers).toEqual({
      authorization: REDACTED,
      cookie: REDACTED,
      'x-api-key': REDACTED,
      host: 'a',
    });
    expect(config?.config.api).toEqual({ adminApiKey: REDACTED, port: 3000 });
    expect(payload).toMatchObject({
      apiKey: REDACTED,
      key: REDACTED,
      webhook: { secret: REDACTED, url: 'https://hooks.example.com' },
      token: REDACTED,
    });
  });
});

describe('platform metrics', () => {
  it('sums the public tally into answers by status and cache on scrape, once', async () => {
    const metrics = new PlatformMetrics('public', { defaultMetrics: false });
    for (let i = 0; i < 5; i++) metrics.publicTally.count(304, true);
    metrics.publicTally.count(200, false);
    metrics.publicTally.count(404, true);
    const first = (await metrics.text()).body;
    expect(first).toContain('sitemaps_public_responses_total{status="304",cache="hit",app="public"} 5');
    expect(first).toContain('sitemaps_public_responses_total{status="200",cache="miss",app="public"} 1');
    expect(first).toContain('sitemaps_public_responses_total{status="404",cache="hit",app="public"} 1');
    metrics.publicTally.count(304, true);
    expect((await metrics.text()).body).toContain(
      'sitemaps_public_responses_total{status="304",cache="hit",app="public"} 6',
    );
  });

  it('reads pools and queues on scrape', async () => {
    const metrics = new PlatformMetrics('worker', { defaultMetrics: false });
    const pool = { totalCount: 3, idleCount: 1, waitingCount: 0 };
    metrics.observePool('worker', pool);
    let asked = 0;
    metrics.observeQueues([{ name: 'shard', getJobCounts: async () => (asked++, { waiting: 7, failed: 2 }) }]);
    pool.totalCount = 4;
    const text = (await metrics.text()).body;
    expect(asked).toBe(1);
    expect(text).toContain('sitemaps_pg_pool_connections{pool="worker",state="total",app="worker"} 4');
    expect(text).toContain('sitemaps_queue_jobs{queue="shard",state="waiting",app="worker"} 7');
    expect(text).toContain('sitemaps_queue_jobs{queue="shard",state="failed",app="worker"} 2');
    expect(text).toContain('sitemaps_queue_jobs{queue="shard",state="active",app="worker"} 0');
  });
});
