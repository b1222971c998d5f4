// The drain against real Postgres and Redis: with no endpoint it passes the window over without
// reading a URL row (counted by Postgres itself), and once endpoints are on, it announces only
// what changed after that, not the backlog of changes made while IndexNow was off.
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexNowRepository } from '@sitemaps/data';
import { UrlIngestService } from '@sitemaps/ingest';
import type { DrainIndexNowPayload, SubmitIndexNowPayload } from '@sitemaps/jobs';
import { insertSite, testRedisUrl, uniqueQueuePrefix, useTestPool } from '@sitemaps/testing';
import { IndexNowDrainer } from './indexnow.drainer';

describe('IndexNow drain (real Postgres, Redis)', () => {
  const fixture = useTestPool();
  /** One connection for every read or write of `urls` before a count: its statistics are flushed on demand. */
  let drainPool: Pool;
  let redis: Redis;
  let queue: Queue;
  let ingest: UrlIngestService;
  let site: Awaited<ReturnType<typeof insertSite>>;

  const entries = (from: number, count: number) =>
    Array.from({ length: count }, (_, k) => ({ loc: `https://${site.hostname}/p/${from + k}`, priority: 0.5 }));

  beforeAll(async () => {
    drainPool = new Pool({ connectionString: fixture.db.url, max: 1 });
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
    queue = IndexNowDrainer.queue(redis, uniqueQueuePrefix('indexnow-drain'));
    ingest = new UrlIngestService(drainPool, async () => undefined);
    site = await insertSite(fixture.pool);
  });
  afterAll(async () => {
    await queue?.obliterate({ force: true });
    await queue?.close();
    redis?.disconnect();
    await drainPool?.end();
  });

  /** Stores the URLs, then a build published after them: the drain payload of its publish. */
  async function publishAfter(urls: { loc: string; priority: number }[]): Promise<DrainIndexNowPayload> {
    expect((await ingest.upsert(site, urls)).errors).toEqual([]);
    const { rows } = await fixture.pool.query<{ id: string; until: Date; cursor: Date | null }>(
      `INSERT INTO builds (id, site_id, status, finished_at) VALUES (gen_random_uuid(), $1, 'published', clock_timestamp())
       RETURNING id, finished_at AS until, (SELECT indexnow_cursor FROM sites WHERE id = $1) AS cursor`,
      [site.id],
    );
    const build = rows[0]!;
    return {
      v: 1,
      siteId: site.id,
      buildId: build.id,
      from: build.cursor?.toISOString() ?? null,
      until: build.until.toISOString(),
    };
  }

  /** Scans of `urls` so far, once the one connection that touches it has flushed its counts. */
  async function urlScans(): Promise<number> {
    await drainPool.query('SELECT pg_stat_force_next_flush()');
    await drainPool.query('SELECT 1'); // the flush happens as the backend goes idle after the call
    const { rows } = await fixture.pool.query<{ scans: number }>(
      `SELECT (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int AS scans FROM pg_stat_user_tables WHERE relname = 'urls'`,
    );
    return rows[0]!.scans;
  }

  async function state(buildId: string) {
    const { rows } = await fixture.pool.query<{ cursor: Date | null; indexnow: unknown }>(
      `SELECT s.indexnow_cursor AS cursor, b.indexnow FROM builds b JOIN sites s ON s.id = b.site_id WHERE b.id = $1`,
      [buildId],
    );
    return rows[0]!;
  }

  const submitted = async () =>
    (await queue.getJobs(['waiting', 'delayed', 'prioritized'])).map((job) => job.data as SubmitIndexNowPayload);

  it('with no endpoint, moves the cursor and marks the build drained without reading a URL', async () => {
    const payload = await publishAfter(entries(0, 300));
    const off = new IndexNowDrainer(new IndexNowRepository(drainPool), queue, []);
    const before = await urlScans();

    const result = await off.drain(payload);

    expect(await urlScans()).toBe(before);
    expect(result).toEqual({ batches: 0, urls: 0 });
    expect(await state(payload.buildId)).toEqual({ cursor: new Date(payload.until), indexnow: [] });
    expect(await submitted()).toEqual([]);
  });

  it('once on, submits only the changes made after that, not the backlog from while it was off', async () => {
    const payload = await publishAfter(entries(1_000, 2));
    const on = new IndexNowDrainer(new IndexNowRepository(drainPool), queue, ['https://engine.example/indexnow']);
    const before = await urlScans();

    expect(await on.drain(payload)).toEqual({ batches: 1, urls: 2 });

    expect(await urlScans()).toBeGreaterThan(before); // the count above can see a read
    expect(await state(payload.buildId)).toMatchObject({ cursor: new Date(payload.until) });
    const [job, ...rest] = await submitted();
    expect(rest).toEqual([]);
    expect(job).toMatchObject({ buildId: payload.buildId, host: site.hostname, from: payload.from });
    const { rows } = await fixture.pool.query<{ id: string }>(
      `SELECT id::text FROM urls WHERE site_id = $1 AND loc LIKE '%/p/100_' ORDER BY id`,
      [site.id],
    );
    expect([job?.firstId, job?.lastId]).toEqual(rows.map((row) => row.id));
  });
});
