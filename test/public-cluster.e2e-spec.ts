// The public server as production runs it on a machine with several cores: one primary and
// PUBLIC_WORKERS worker processes, each with its own manifest cache. A publish must be served at
// once by every process (no stale process cache), a worker that dies is replaced, and SIGTERM
// stops them all. Which process answered is read from the access log's pid.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestChannel } from '@sitemaps/serving';
import { rawRequest } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { startPlatform, type Platform } from './support/platform';
import { spawnPublic, type PublicProcess } from './support/public-process';
import { createTenantWithSite } from './support/tenant';

const HOST = 'cluster.example.com';
const WORKERS = 3;
/** Several rounds of the primary's round-robin over the workers. */
const PROBES = WORKERS * 4;

describe('public server with several processes', () => {
  let platform: Platform;
  let server: PublicProcess;
  let subscriber: Redis;
  let api: ReturnType<typeof apiClient>;
  let siteId: string;

  beforeAll(async () => {
    // Builds run only when the test asks for one.
    platform = await startPlatform({ BUILD_QUIET_MS: '600000', BUILD_MAX_WAIT_MS: '600000' });
    ({ api, siteId } = await createTenantWithSite(platform.apiUrl, 'Cluster', { hostname: HOST }));
    await publish([`https://${HOST}/a`, `https://${HOST}/b`]);
    subscriber = new Redis(platform.config.redisUrl);
    await subscriber.subscribe(manifestChannel(platform.config.queuePrefix));
    server = await spawnPublic({ ...platform.env, PUBLIC_WORKERS: String(WORKERS) });
  });
  afterAll(async () => {
    await server?.stop();
    subscriber?.disconnect();
    await platform?.close();
  });

  async function publish(locs: string[]): Promise<void> {
    expect(
      (
        await api.put(
          `/v1/sites/${siteId}/urls`,
          locs.map((loc) => ({ loc })),
        )
      ).body.errors,
    ).toEqual([]);
    const { body } = await api.post(`/v1/sites/${siteId}/builds`, {});
    expect(await api.waitForBuild(siteId, body.buildId)).toMatchObject({ status: 'published' });
  }

  /** The worker processes listening now, by pid. */
  function workerPids(): Set<number> {
    const started = server.lines.filter((line) => line.msg === 'public worker listening').map((line) => line.pid);
    const exited = new Set(
      server.lines
        .filter((line) => line.msg === 'a public worker exited; starting another')
        .map((line) => line.workerPid),
    );
    return new Set(started.filter((pid) => !exited.has(pid)));
  }

  /**
   * GET /sitemap.xml over a fresh connection each time, one after another, so the primary's
   * round-robin hands them to every worker; returns each answer's ETag and the pid that served it.
   */
  async function probe(): Promise<{ etag: string | undefined; pid: number }[]> {
    const batch = randomUUID();
    const answers = [];
    for (let i = 0; i < PROBES; i++) {
      const url = `/sitemap.xml?probe=${batch}-${i}`;
      const response = await rawRequest(server.url, url, {
        host: HOST,
        headers: { connection: 'close', 'accept-encoding': 'gzip' },
      });
      expect(response.status).toBe(200);
      answers.push({ url, etag: response.headers.etag });
    }
    return Promise.all(
      answers.map(async ({ url, etag }) => ({
        etag,
        pid: (await server.waitForLine((line) => line.msg === 'request' && line.url === url)).pid,
      })),
    );
  }

  it('serves a publish from every process at once', async () => {
    // Every worker has the current manifest in its cache.
    const before = await probe();
    const oldTag = before[0]?.etag;
    expect(new Set(before.map((answer) => answer.etag))).toEqual(new Set([oldTag]));
    expect(new Set(before.map((answer) => answer.pid))).toEqual(workerPids());
    expect(workerPids().size).toBe(WORKERS);

    const announced = new Promise<void>((resolve) => {
      // An announcement is `<site id> <commit LSN>` (the LSN lets replica readers wait for replay).
      subscriber.on(
        'message',
        (channel: string, message: string) =>
          channel === manifestChannel(platform.config.queuePrefix) && message.split(' ')[0] === siteId && resolve(),
      );
    });
    await publish([`https://${HOST}/c`]);
    // The moment the publish is announced, no process may answer from its old cache.
    await announced;
    const after = await probe();
    const newTag = after[0]?.etag;
    expect(newTag).not.toBe(oldTag);
    expect(after.map((answer) => answer.etag)).toEqual(after.map(() => newTag));
    expect(new Set(after.map((answer) => answer.pid))).toEqual(workerPids());
  });

  it('replaces a worker that dies, and keeps answering meanwhile', async () => {
    const before = workerPids();
    const [victim] = before;
    process.kill(victim as number, 'SIGKILL');
    await server.waitForLine(
      (line) => line.msg === 'a public worker exited; starting another' && line.workerPid === victim,
    );
    // New connections go to the workers still alive while the replacement starts.
    expect((await rawRequest(server.url, '/robots.txt', { host: HOST, headers: { connection: 'close' } })).status).toBe(
      200,
    );
    await server.waitForLine((line) => line.msg === 'public worker listening' && !before.has(line.pid));
    expect(workerPids().size).toBe(WORKERS);
    expect(new Set((await probe()).map((answer) => answer.pid))).toEqual(workerPids());
  });

  it('stops every process on SIGTERM and exits 0', async () => {
    const pids = [...workerPids()];
    expect(await server.stop()).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });
});
