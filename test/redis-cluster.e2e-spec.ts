// The platform on a real Redis Cluster (three masters, three replicas, started here from
// redis-server processes): the pipeline scenario as on one Redis, then a master killed in the
// middle of a build. Every queue key is in the slot of the `{prefix}` hash tag; the test kills
// the master that serves it, and the build still publishes every stored URL.
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, waitUntil, type TestRedisCluster } from '@sitemaps/testing';
import { crawl, locsOf, validateSitemaps } from './support/crawler';
import { describePipeline } from './support/pipeline.suite';
import { startPlatform, type Platform } from './support/platform';
import { spawnWorker, type WorkerProcess } from './support/worker-process';
import { createTenantWithSite, type ApiClient } from './support/tenant';

describe('on a Redis Cluster', () => {
  let cluster: TestRedisCluster;

  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());

  describePipeline('pipeline on a Redis Cluster', (overrides) =>
    startPlatform({ REDIS_CLUSTER_NODES: cluster.nodes, ...overrides }),
  );

  describe('a master failing over', () => {
    const HOST = 'failover.example.org';
    const SECTIONS = 24;
    const PER_SECTION = 500;
    let platform: Platform;
    let api: ApiClient;
    let siteId: string;
    let db: Client;
    let worker: WorkerProcess;

    beforeAll(async () => {
      // Jobs of a worker cut off from Redis return to the queue soon; builds Redis forgot are re-queued soon.
      // The worker runs as a process of its own: the test ends it with SIGKILL (see the note below).
      platform = await startPlatform(
        { REDIS_CLUSTER_NODES: cluster.nodes, WORKER_LOCK_MS: '3000', BUILD_STALE_MS: '5000' },
        { worker: false },
      );
      worker = await spawnWorker(platform.env);
      ({ api, siteId } = await createTenantWithSite(platform.apiUrl, 'Failover', { hostname: HOST }));
      db = new Client({ connectionString: platform.db.url });
      await db.connect();
    });
    afterAll(async () => {
      // Known issue: after a failover, a worker's graceful close can wait forever on one of its
      // BullMQ workers under heavy load (and that worker may stop taking jobs); not solved yet.
      await worker?.kill();
      await db?.end();
      // The same known issue reaches the api's and public server's cluster clients: a close that
      // waits on a failed-over node is bounded, so it cannot hang the run (its database leaks).
      const closed = await Promise.race([
        platform?.close().then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 30_000).unref()),
      ]);
      if (!closed) console.warn('platform close after the failover did not finish within 30 s (known issue)');
    }, 60_000);

    it('keeps the queues in the hash tag of the prefix', () => {
      expect(platform.config.queuePrefix).toBe(`{${platform.env.QUEUE_PREFIX}}`);
    });

    it('publishes every URL of a build whose queues’ master is killed while it renders', async () => {
      const locs: string[] = [];
      for (let section = 0; section < SECTIONS; section++) {
        const entries = Array.from({ length: PER_SECTION }, (_, i) => ({
          loc: `https://${HOST}/s${section}/${i}`,
          section: `s${section}`,
        }));
        locs.push(...entries.map((entry) => entry.loc));
        expect((await api.put(`/v1/sites/${siteId}/urls`, entries)).body.errors).toEqual([]);
      }
      const master = await cluster.masterOf(platform.config.queuePrefix);

      const build = await api.post(`/v1/sites/${siteId}/builds`, { full: true });
      expect(build.status).toBe(202);
      const buildId = build.body.buildId as string;
      await waitUntil(
        'the build to have rendered a shard',
        async () => {
          const { rows } = await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM shard_renders WHERE build_id = $1',
            [buildId],
          );
          return (rows[0]?.n ?? 0) > 0;
        },
        { intervalMs: 10 },
      );
      const { newMaster } = await cluster.failOver(master);
      expect(newMaster).not.toBe(master);

      expect(await api.waitForBuild(siteId, buildId, 180_000)).toMatchObject({
        status: 'published',
        full: true,
        shardsRendered: SECTIONS,
      });
      const { index, shards } = await crawl(platform.publicUrl, HOST);
      expect(shards).toHaveLength(SECTIONS);
      expect(shards.flatMap((shard) => locsOf(shard.xml)).sort()).toEqual([...locs].sort());
      const documents = [
        { name: 'index.xml', data: index.body },
        ...shards.map((shard) => ({ name: shard.path, data: shard.body })),
      ];
      expect((await validateSitemaps(documents)).output).toBe('');
    }, 240_000);
  });
});
