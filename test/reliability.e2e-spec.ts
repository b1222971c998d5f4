// Faults during builds: a worker killed with SIGKILL, two workers racing on a burst of
// changes, Redis restarted (and emptied) mid-build. Crawlers must never see an inconsistent
// set, and no build may be silently dropped. Fault tests use their own worker processes and
// their own redis-server; the machine's shared services are never touched.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Client } from 'pg';
import { freePort, startRedisServer, waitFor, type RedisServer } from '@sitemaps/local-services';
import { crawl, fetchFile, locsOf, validateSitemaps } from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { spawnWorker, type WorkerProcess } from './support/worker-process';
import { createTenantWithSite, type ApiClient } from './support/tenant';

const HOST = 'faults.example.com';
const url = (i: number) => `https://${HOST}/item/${i}`;

async function seedSite(platform: Platform, count: number, priority: number) {
  const { api, siteId } = await createTenantWithSite(platform.apiUrl, 'Faults', { hostname: HOST });
  await upsertAll(api, siteId, count, priority);
  return { api, siteId };
}

async function upsertAll(api: ApiClient, siteId: string, count: number, priority: number) {
  for (let start = 0; start < count; start += 10_000) {
    const entries = Array.from({ length: Math.min(10_000, count - start) }, (_, k) => ({
      loc: url(start + k),
      priority,
    }));
    const res = await api.put(`/v1/sites/${siteId}/urls`, entries);
    expect(res.body.errors).toEqual([]);
  }
}

async function buildStatus(platform: Platform, buildId: string): Promise<string> {
  const db = new Client({ connectionString: platform.db.url });
  await db.connect();
  try {
    return (
      (await db.query<{ status: string }>('SELECT status FROM builds WHERE id = $1', [buildId])).rows[0]?.status ??
      'missing'
    );
  } finally {
    await db.end();
  }
}

/** Polls the public server like a crawler until stopped, recording anything inconsistent. */
function watchConsistency(platform: Platform) {
  const problems: string[] = [];
  const files = new Map<string, Buffer>();
  const indexVersions = new Set<string>();
  let rounds = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const index = await fetchFile(platform.publicUrl, HOST, 'sitemap.xml');
      if (index.status !== 200) {
        problems.push(`index answered ${index.status}`);
        continue;
      }
      indexVersions.add(index.etag ?? '');
      files.set(`index ${index.etag}`, Buffer.from(index.xml));
      const listed = [...index.xml.matchAll(/<loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?/g)];
      for (const [, loc, lastmod] of listed) {
        const shard = await fetchFile(platform.publicUrl, HOST, new URL(loc as string).pathname);
        if (shard.status !== 200) problems.push(`${loc} listed but answered ${shard.status}`);
        else {
          files.set(`${loc} ${shard.etag}`, shard.body);
          const newest = [...shard.xml.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)]
            .map((m) => Date.parse(m[1] as string))
            .reduce((a, b) => Math.max(a, b), 0);
          // The index dates a file by when its bytes changed: never before the newest URL it lists.
          if (lastmod && newest > Date.parse(lastmod)) problems.push(`${loc} lists a URL newer than its index entry`);
        }
      }
      rounds += 1;
    }
  })();
  return {
    /** Stops after one more whole round, so the version published last is seen too. */
    async stop() {
      const target = rounds + 2;
      await waitFor(async () => rounds >= target, 60_000, 'the watcher made no progress');
      stopped = true;
      await loop;
      return { problems, rounds, indexVersions, files };
    },
  };
}

// Each fault test seeds 150,000 URLs and rides out a fault: minutes on a loaded 2-core machine.
const FAULT_TEST_MS = 240_000;

describe('reliability', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  }, FAULT_TEST_MS);

  it(
    'finishes a build after its worker is killed with SIGKILL, and crawlers never see a broken set',
    async () => {
      // No change-triggered builds: this test starts every build itself.
      const platform = await startPlatform(
        { WORKER_LOCK_MS: '2000', WORKER_CONCURRENCY: '1', BUILD_QUIET_MS: '600000', BUILD_MAX_WAIT_MS: '600000' },
        { worker: false },
      );
      cleanups.push(() => platform.close());
      let worker: WorkerProcess = await spawnWorker(platform.env);
      cleanups.push(() => worker.stop());

      const { api, siteId } = await seedSite(platform, 150_000, 0.3);
      const first = await api.post(`/v1/sites/${siteId}/builds`, {});
      expect(await api.waitForBuild(siteId, first.body.buildId)).toMatchObject({ status: 'published' });

      await upsertAll(api, siteId, 150_000, 0.7);
      const watcher = watchConsistency(platform);
      const second = await api.post(`/v1/sites/${siteId}/builds`, {});
      await waitFor(
        async () => (await buildStatus(platform, second.body.buildId)) === 'running',
        30_000,
        'build did not start',
      );
      await worker.kill();
      expect(await buildStatus(platform, second.body.buildId)).toBe('running');

      worker = await spawnWorker(platform.env);
      expect(await api.waitForBuild(siteId, second.body.buildId, 90_000)).toMatchObject({
        status: 'published',
        urlCount: 150_000,
      });
      const seen = await watcher.stop();

      expect(seen.problems).toEqual([]);
      expect(seen.rounds).toBeGreaterThan(3);
      expect(seen.indexVersions.size).toBeGreaterThanOrEqual(2);
      const { shards } = await crawl(platform.publicUrl, HOST);
      expect(shards.flatMap((s) => locsOf(s.xml))).toHaveLength(150_000);
      for (const shard of shards) expect(shard.xml).not.toContain('<priority>0.3</priority>');
      expect(
        (
          await validateSitemaps(
            [...seen.files.entries()].map(([name, data], i) => ({
              name: `${i}-${path.basename(name.split(' ')[0] ?? 'f')}`,
              data,
            })),
          )
        ).status,
      ).toBe(0);
    },
    FAULT_TEST_MS,
  );

  it('exits after WORKER_SHUTDOWN_TIMEOUT_MS when its close hangs on a job that cannot end', async () => {
    const platform = await startPlatform({ BUILD_QUIET_MS: '600000', BUILD_MAX_WAIT_MS: '600000' }, { worker: false });
    cleanups.push(() => platform.close());
    const worker = await spawnWorker({ ...platform.env, WORKER_SHUTDOWN_TIMEOUT_MS: '2000' });
    cleanups.push(() => worker.stop());
    const { api, siteId } = await seedSite(platform, 100, 0.5);
    // The build's job waits on a table another transaction holds: SIGTERM's close waits for it.
    const holder = new Client({ connectionString: platform.db.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE shards IN ACCESS EXCLUSIVE MODE');
    await api.post(`/v1/sites/${siteId}/builds`, {});
    await waitFor(
      async () =>
        (
          await holder.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'shards'::regclass AND NOT granted",
          )
        ).rows[0]!.n > 0,
      60_000,
      'the build did not wait on the shards table',
    );
    await worker.stop();
    expect(worker.child.exitCode).toBe(1);
    expect(worker.output()).toContain('worker did not close in time');
    await holder.query('ROLLBACK');
  });

  it(
    'loses and duplicates nothing with two workers and concurrent writers, and matches a full rebuild',
    async () => {
      const platform = await startPlatform(
        { BUILD_QUIET_MS: '50', BUILD_MAX_WAIT_MS: '400', WORKER_CONCURRENCY: '2' },
        { worker: false },
      );
      cleanups.push(() => platform.close());
      const workers = [await spawnWorker(platform.env), await spawnWorker(platform.env)];
      cleanups.push(async () => void (await Promise.all(workers.map((w) => w.stop()))));
      const { api, siteId } = await createTenantWithSite(platform.apiUrl, 'Race', { hostname: HOST });

      // Four writers, each owning its own range of URLs, so the final state is known exactly.
      const expected = new Map<string, number>();
      await Promise.all(
        [0, 1, 2, 3].map(async (writer) => {
          for (let round = 0; round < 8; round += 1) {
            const base = writer * 20_000;
            const entries = Array.from({ length: 2_000 }, (_, k) => ({
              loc: url(base + ((round * 1_500 + k) % 20_000)),
              priority: (round % 10) / 10,
            }));
            expect((await api.put(`/v1/sites/${siteId}/urls`, entries)).body.errors).toEqual([]);
            for (const entry of entries) expected.set(entry.loc, entry.priority);
            if (round % 3 === 2) {
              const gone = entries.slice(0, 100).map((entry) => entry.loc);
              await api.delete(`/v1/sites/${siteId}/urls`, { locs: gone });
              for (const loc of gone) expected.delete(loc);
            }
          }
        }),
      );

      // Quiescent: every change published (no dirty shard) and no build left running.
      const db = new Client({ connectionString: platform.db.url });
      await db.connect();
      cleanups.push(() => db.end());
      await waitFor(
        async () => {
          const { rows } = await db.query<{ dirty: number; open: number }>(
            `SELECT (SELECT count(*) FROM shards WHERE dirty)::int AS dirty, (SELECT count(*) FROM builds WHERE status IN ('queued', 'running'))::int AS open`,
          );
          return rows[0]?.dirty === 0 && rows[0]?.open === 0;
        },
        90_000,
        'changes were not all published',
      );

      const incremental = await crawl(platform.publicUrl, HOST);
      const served = new Map<string, number>();
      for (const shard of incremental.shards) {
        for (const match of shard.xml.matchAll(
          /<loc>([^<]*)<\/loc>(?:<lastmod>[^<]*<\/lastmod>)?(?:<priority>([^<]*)<\/priority>)?/g,
        )) {
          expect(served.has(match[1] as string)).toBe(false);
          served.set(match[1] as string, Number(match[2] ?? 0.5));
        }
      }
      expect(served).toEqual(expected);

      const full = await api.post(`/v1/sites/${siteId}/builds`, { full: true });
      expect(await api.waitForBuild(siteId, full.body.buildId)).toMatchObject({ status: 'published' });
      const rebuilt = await crawl(platform.publicUrl, HOST);
      // The same documents, not always the same gzip bytes: a change keeps its shard's slice cuts
      // (libs/domain shard-slices) and a full build cuts them afresh, so the deflate framing can differ.
      expect(rebuilt.shards.map((s) => s.xml)).toEqual(incremental.shards.map((s) => s.xml));
    },
    FAULT_TEST_MS,
  );

  it(
    'completes a build after Redis is restarted and emptied mid-build',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'redis-fault-'));
      const port = await freePort();
      let redis: RedisServer = await startRedisServer({ port, dir });
      cleanups.push(async () => {
        await redis.stop();
        rmSync(dir, { recursive: true, force: true });
      });
      const platform = await startPlatform({
        REDIS_URL: redis.url,
        BUILD_STALE_MS: '3000',
        WORKER_LOCK_MS: '2000',
        WORKER_CONCURRENCY: '1',
        BUILD_QUIET_MS: '600000',
        BUILD_MAX_WAIT_MS: '600000',
      });
      cleanups.push(() => platform.close());

      const { api, siteId } = await seedSite(platform, 150_000, 0.2);
      const first = await api.post(`/v1/sites/${siteId}/builds`, {});
      expect(await api.waitForBuild(siteId, first.body.buildId)).toMatchObject({ status: 'published' });
      await upsertAll(api, siteId, 150_000, 0.9);

      const second = await api.post(`/v1/sites/${siteId}/builds`, {});
      await waitFor(
        async () => (await buildStatus(platform, second.body.buildId)) === 'running',
        30_000,
        'build did not start',
      );
      await redis.kill();
      expect(await buildStatus(platform, second.body.buildId)).toBe('running');
      // Restarted without persistence: every queued job is gone; only Postgres remembers the build.
      redis = await startRedisServer({ port, dir });

      expect(await api.waitForBuild(siteId, second.body.buildId, 90_000)).toMatchObject({
        status: 'published',
        urlCount: 150_000,
      });
      const { shards } = await crawl(platform.publicUrl, HOST);
      for (const shard of shards) expect(shard.xml).not.toContain('<priority>0.2</priority>');
    },
    FAULT_TEST_MS,
  );
});
