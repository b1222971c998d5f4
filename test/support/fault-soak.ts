// The fault soak: the platform as production runs it (an API, two workers and a public server,
// each a process of its own) on a Postgres primary with a streaming replica and a Redis of its
// own (one server, or a Redis Cluster of three masters and three replicas), under mixed load (URL
// PUTs and deletions, NDJSON imports, explicit builds, a crawler), while a driver kills and
// restarts, on a schedule, a worker, the API, the public server, Redis (the server, or the cluster
// master that serves the queues, failed over to its replica) and Postgres (stopped for a while and
// started again), and once promotes the replica, planned or after a crash of the primary (the
// apps reach Postgres through a TCP proxy, the stand-in for the name or address a failover moves). Afterwards it checks that what is
// published is what is stored, that no acknowledged write was lost, that no crawler was served a
// partial set, that no job is stuck, and samples every process's RSS. `npm run soak` runs it for
// minutes (scripts/fault-soak.ts); test/fault-soak.e2e-spec.ts runs a short one.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import { Client } from 'pg';
import { QUEUE } from '@sitemaps/jobs';
import { freePort, startRedisServer, stopChild, type RedisServer } from '@sitemaps/local-services';
// The lib's files, not its index (which loads vitest): `npm run soak` runs this outside vitest.
import { startPostgresReplicaPair, type PostgresReplicaPair } from '@sitemaps/testing/src/postgres-replica';
import { startRedisCluster, type TestRedisCluster } from '@sitemaps/testing/src/redis-cluster';
import { startTcpProxy, type TcpProxy } from '@sitemaps/testing/src/tcp-proxy';
import { waitUntil } from '@sitemaps/testing/src/wait-until';
import { apiClient } from './api-client';
import { spawnApi, type ApiProcess } from './api-process';
import { fetchFile, locsOf, validateSitemaps } from './crawler';
import { spawnPublic, type PublicProcess } from './public-process';
import { spawnWorker } from './worker-process';

/**
 * `redis` SIGKILLs the one Redis server and starts it again; `redis-master` (on a cluster) SIGKILLs
 * the master serving the queues, waits for its replica to take over, then starts the killed node
 * again (it rejoins as a replica). `postgres-restart` stops the primary for `postgresDownMs` and
 * starts it again. `postgres-promote` (planned: fast stop, the replica has every commit) and
 * `postgres-crash` (immediate stop of the primary, the synchronous replica promoted) re-point the
 * proxy; only one of them happens, once: afterwards there is no replica.
 */
export type FaultKind =
  'worker' | 'api' | 'public' | 'redis' | 'redis-master' | 'postgres-restart' | 'postgres-promote' | 'postgres-crash';

export interface SoakOptions {
  /** How long the load runs; the driver injects every kind of fault once even if that takes longer. */
  durationMs: number;
  /** One fault every this long, round robin over `faults`. */
  faultEveryMs: number;
  faults: FaultKind[];
  /** One redis-server (default), or a Redis Cluster the soak starts (the apps get REDIS_CLUSTER_NODES). */
  redis?: 'server' | 'cluster';
  /** Worker processes (default 2). */
  workers?: number;
  /** How long `postgres-restart` keeps the primary down (default 5 s): the API answers 503 meanwhile. */
  postgresDownMs?: number;
  log?: (line: string) => void;
}

export interface FaultRecord {
  kind: FaultKind;
  atS: number;
  /** From the fault until the platform answered again (that process ready, or the API taking writes). */
  recoveryMs: number;
}

export interface SoakReport {
  durationS: number;
  requests: Record<string, number>;
  /** Errors the load's clients saw, by request kind and status (or network error). */
  clientErrors: Record<string, number>;
  /**
   * Per kind of client error (the keys of `clientErrors`): the fault in progress when each was seen
   * (or the last one and how long after its recovery), by count; and, for a 5xx other than 503, the
   * API's lines logged while the request ran (the first few).
   */
  clientErrorFaults: Record<string, Record<string, number>>;
  serverErrors: { atS: number; error: string; fault: string; log: string }[];
  faults: FaultRecord[];
  /** Recovery per kind of fault: how many, the median and the longest (ms). */
  recoveryByKind: { kind: FaultKind; count: number; medianMs: number; maxMs: number }[];
  crawler: { rounds: number; completeSets: number; unavailable: number; partialSets: string[] };
  stored: number;
  published: number;
  /** Stored URLs the public server does not list, and listed ones not stored (both empty when all is well). */
  publishedDiff: { missing: string[]; extra: string[] };
  /** URLs whose PUT or import was acknowledged (and never deleted) but that are not stored. */
  lost: string[];
  /** Processes that died by themselves (an orchestrator would restart them; the soak does), with their last output. */
  crashes: { name: string; atS: number; output: string }[];
  /** Jobs left in a queue once the platform has settled: none when no job is stuck. */
  stuckJobs: Record<string, number>;
  /** Processes that did not exit within 30 s of SIGTERM at the end (then SIGKILLed): a shutdown that hangs. */
  stopHangs: string[];
  /** Per process: RSS (MB) first sampled after warm-up and last, and the most seen. */
  rss: { name: string; firstMb: number; lastMb: number; maxMb: number }[];
}

const HOST = 'soak.example.com';
const ADMIN_KEY = 'soak-admin-key-0123456789';
const loc = (p: string) => `https://${HOST}${p}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runFaultSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const onCluster = options.redis === 'cluster';
  const wrongRedis = options.faults.find((kind) => kind === (onCluster ? 'redis' : 'redis-master'));
  if (wrongRedis) throw new Error(`fault ${wrongRedis} needs redis: '${onCluster ? 'server' : 'cluster'}'`);
  const queuePrefix = `soak-${randomBytes(4).toString('hex')}`;
  const redisDir = onCluster ? undefined : await mkdtemp(path.join(tmpdir(), 'soak-redis-'));
  const redisPort = await freePort();
  // Redis with its append-only file: a restart keeps the queues, as a production Redis would.
  const startRedis = () =>
    startRedisServer({ port: redisPort, dir: redisDir!, args: ['--appendonly', 'yes', '--appendfsync', 'everysec'] });
  const cluster: TestRedisCluster | undefined = onCluster ? await startRedisCluster() : undefined;
  let redis: RedisServer | undefined = onCluster ? undefined : await startRedis();
  // A crash loses no acknowledged commit only when the replica confirms every commit.
  const pg: PostgresReplicaPair = await startPostgresReplicaPair({
    synchronous: options.faults.includes('postgres-crash'),
  });
  const proxy: TcpProxy = await startTcpProxy(pg.primaryPort());
  const databaseUrl = `postgres://postgres@127.0.0.1:${proxy.port}/sitemaps`;
  const env = {
    DATABASE_URL: databaseUrl,
    ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodes } : { REDIS_URL: redis!.url }),
    QUEUE_PREFIX: queuePrefix,
    ADMIN_API_KEY: ADMIN_KEY,
    LOG_LEVEL: 'error',
    INDEXNOW_ENDPOINTS: 'off',
    API_AUTH_FAILURE_POINTS: '100000',
    API_RATE_LIMIT_POINTS: '100000',
    WORKER_LOCK_MS: '5000',
    BUILD_STALE_MS: '15000',
    BUILD_QUIET_MS: '500',
    BUILD_MAX_WAIT_MS: '5000',
    WORKER_SHUTDOWN_TIMEOUT_MS: '10000',
    WORKER_STALL_MS: '30000',
    PUBLIC_WORKERS: '1',
  };
  // Starting a process (SWC compiling at start) on a machine loaded 30 deep took over 180 s: a soak
  // that gives up then measures the machine, not the platform. Ten minutes, as a patient orchestrator.
  const slow = { startTimeoutMs: 600_000 };
  // Started side by side: on a loaded machine each start is mostly waiting for SWC and Nest.
  const [firstApi, firstPublic, workers] = await Promise.all([
    spawnApi(env, slow),
    spawnPublic(env, slow),
    Promise.all(Array.from({ length: options.workers ?? 2 }, () => spawnWorker(env, slow))),
  ]);
  let api: ApiProcess = firstApi;
  let publicServer: PublicProcess = firstPublic;
  log(`soak: platform up in ${seconds()} s`);

  const requests: Record<string, number> = {};
  const clientErrors: Record<string, number> = {};
  const count = (bucket: Record<string, number>, key: string) => (bucket[key] = (bucket[key] ?? 0) + 1);
  const acked = new Set<string>();
  const uncertain = new Set<string>();
  const rss = new Map<string, { firstMb: number; lastMb: number; maxMb: number }>();
  const faults: FaultRecord[] = [];
  const crashes: SoakReport['crashes'] = [];
  /** Set while the driver kills and restarts processes: their deaths are not crashes. */
  let injecting = false;
  const crawler = { rounds: 0, completeSets: 0, unavailable: 0, partialSets: [] as string[] };
  let stop = false;
  /** The fault being injected (and its phase), or the last one and when it recovered. */
  let faultNow: string | undefined;
  let lastFault: { kind: string; recoveredAt: number } | undefined;
  const faultContext = () =>
    faultNow ??
    (lastFault
      ? `${Math.round((Date.now() - lastFault.recoveredAt) / 1000)} s after ${lastFault.kind}`
      : 'no fault yet');
  const clientErrorFaults: SoakReport['clientErrorFaults'] = {};
  const serverErrors: SoakReport['serverErrors'] = [];

  const admin = () => apiClient(api.url, ADMIN_KEY);
  const tenantKey = (await admin().post('/v1/tenants', { name: 'Soak' })).body.apiKey as string;
  const client = () => apiClient(api.url, tenantKey);
  const siteId = (await client().post('/v1/sites', { hostname: HOST })).body.id as string;

  /** Counts a client error under its key, with the fault in progress when it was seen. */
  const clientError = (key: string, faultAtStart: string) => {
    count(clientErrors, key);
    // A fault that began or ended while the request ran: both.
    const faultAtEnd = faultContext();
    const seen = faultAtStart === faultAtEnd ? faultAtStart : `${faultAtStart} → ${faultAtEnd}`;
    count(
      (clientErrorFaults[key] ??= {}),
      seen.replace(/\d+ s after/g, (m) => bucketSeconds(m)),
    );
  };

  /** Runs a request of the load; a refusal or network error is counted, never thrown. */
  async function attempt<T>(
    kind: string,
    run: () => Promise<{ status: number; body: T; headers: Headers }>,
    ok: number[],
  ) {
    count(requests, kind);
    const faultAtStart = faultContext();
    const server = api;
    const logFrom = server.output().length;
    try {
      const response = await run();
      if (ok.includes(response.status)) return response;
      const key = `${kind} ${response.status}${refusal(response)}`;
      clientError(key, faultAtStart);
      // A 503 says what was unavailable; anything else 5xx is a fault of ours: keep what the API logged.
      if (response.status >= 500 && response.status !== 503 && serverErrors.length < 20) {
        // What the API logged while this request ran (its access-log lines aside): the error behind the answer.
        const logged = server
          .output()
          .slice(logFrom)
          .split('\n')
          .filter((line) => line.trim() !== '' && !line.includes('"msg":"request"'))
          .slice(0, 12)
          .join('\n');
        serverErrors.push({ atS: seconds(), error: key, fault: faultContext(), log: logged });
        log(`soak: ${seconds()} s: ${key} during ${faultContext()}:\n${logged}`);
      }
    } catch (error) {
      clientError(
        `${kind} ${(error as Error).cause ? String((error as { cause: Error }).cause.message) : (error as Error).message}`.slice(
          0,
          80,
        ),
        faultAtStart,
      );
    }
    return undefined;
  }

  const putLoop = async () => {
    for (let round = 0; !stop; round++) {
      const locs = Array.from({ length: 50 }, (_, i) => loc(`/p/${round}/${i}`));
      const put = await attempt(
        'PUT urls',
        () =>
          client().put(
            `/v1/sites/${siteId}/urls`,
            locs.map((l, i) => ({ loc: l, section: `s${i % 4}` })),
          ),
        [200],
      );
      if (put) for (const l of locs) acked.add(l);
      else for (const l of locs) uncertain.add(l);
      if (round % 5 === 4) {
        // Deletes ten acknowledged URLs: after a 200 they must be gone, after an error either way.
        const doomed = [...acked].slice(0, 10);
        for (const l of doomed) acked.delete(l);
        const deleted = await attempt(
          'DELETE urls',
          () => client().delete(`/v1/sites/${siteId}/urls`, { locs: doomed }),
          [200],
        );
        if (!deleted) for (const l of doomed) uncertain.add(l);
      }
      await sleep(200);
    }
  };

  const importLoop = async () => {
    for (let round = 0; !stop; round++) {
      const locs = Array.from({ length: 2_000 }, (_, i) => loc(`/i/${round}/${i}`));
      const body = locs.map((l) => JSON.stringify({ loc: l, section: 'imported' })).join('\n');
      const imported = await attempt(
        'NDJSON import',
        () =>
          client().call('POST', `/v1/sites/${siteId}/urls/import`, undefined, {
            raw: body,
            headers: { 'content-type': 'application/x-ndjson' },
          }),
        [201],
      );
      if (imported && (imported.body as { status?: string }).status === 'completed') for (const l of locs) acked.add(l);
      else for (const l of locs) uncertain.add(l);
      await sleep(3_000);
    }
  };

  const buildLoop = async () => {
    while (!stop) {
      await attempt('POST build', () => client().post(`/v1/sites/${siteId}/builds`, {}), [202]);
      await sleep(4_000);
    }
  };

  const crawlLoop = async () => {
    while (!stop) {
      crawler.rounds++;
      const url = publicServer.url;
      await sleep(250);
      try {
        const index = await fetchFile(url, HOST, 'sitemap.xml');
        // 503 (with Retry-After, while Postgres is away): the crawler comes back, as when the server is down.
        if (index.status === 503) {
          crawler.unavailable++;
          continue;
        }
        if (index.status !== 200) {
          if (index.status !== 404) crawler.partialSets.push(`index answered ${index.status}`);
          continue;
        }
        const documents = [{ name: 'sitemap.xml', data: index.body }];
        const problems: string[] = [];
        let deferred = false;
        for (const shard of locsOf(index.xml)) {
          const file = await fetchFile(url, HOST, new URL(shard).pathname);
          if (file.status === 503) deferred = true;
          else if (file.status !== 200) problems.push(`${shard} listed but answered ${file.status}`);
          else documents.push({ name: new URL(shard).pathname, data: file.body });
        }
        if (deferred) {
          crawler.unavailable++;
          continue;
        }
        const validation = await validateSitemaps(documents);
        if (validation.status !== 0) problems.push(validation.output);
        if (problems.length === 0) crawler.completeSets++;
        else crawler.partialSets.push(...problems);
      } catch {
        // The public server is down (killed by the driver): a crawler sees no answer, not a partial set.
        crawler.unavailable++;
        await sleep(500);
      }
    }
  };

  const processes = (): [string, ChildProcess][] => [
    ['api', api.child],
    ...workers.map((worker, i): [string, ChildProcess] => [`worker ${i}`, worker.child]),
    ['public', publicServer.child],
  ];
  const rssLoop = async () => {
    while (!stop) {
      for (const [name, child] of processes()) {
        const mb = processTreeRssMb(child.pid);
        if (mb === undefined) continue;
        // Keyed by process and pid: a restarted process is a new series.
        const key = `${name} (pid ${child.pid})`;
        const series = rss.get(key);
        if (series) Object.assign(series, { lastMb: mb, maxMb: Math.max(series.maxMb, mb) });
        else rss.set(key, { firstMb: mb, lastMb: mb, maxMb: mb });
      }
      await sleep(5_000);
    }
  };

  const dead = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;
  const tail = (text: string) => text.split('\n').slice(-15).join('\n');
  const apiTakesWrites = () =>
    waitUntil(
      'the API to take a write',
      async () => {
        if (dead(api.child)) {
          crashes.push({ name: 'api', atS: seconds(), output: tail(api.output()) });
          log(`soak: ${seconds()} s: the API died by itself:\n${tail(api.output())}`);
          api = await spawnApi(env, slow);
        }
        const put = await client()
          .put(`/v1/sites/${siteId}/urls`, [{ loc: loc('/probe') }])
          .catch(() => undefined);
        return put?.status === 200;
      },
      { timeoutMs: 600_000, intervalMs: 200 },
    );
  /** Waits until the process answers ready; a timeout names it and says what its probe last answered. */
  const ready = (name: string, url: () => string) =>
    waitUntil(
      `${name} ready`,
      async (seen) => {
        const response = await fetch(`${url()}/health/ready`).catch((error: Error) => error);
        if (response instanceof Error) return seen(response.message) && false;
        return seen(`${response.status} ${await response.text()}`).startsWith('200');
      },
      { timeoutMs: 600_000, intervalMs: 200 },
    );
  const everyoneReady = async () => {
    await reviveDead();
    await ready('the API', () => api.url);
    await ready('the public server', () => publicServer.url);
    for (const [i, worker] of workers.entries()) await ready(`worker ${i}`, () => worker.httpUrl);
  };

  const crashed = (name: string, output: string) => {
    crashes.push({ name, atS: seconds(), output });
    log(`soak: ${seconds()} s: ${name} died by itself, restarted:\n${output}`);
  };
  /** Restarts, as an orchestrator would, a process that died by itself, and records it. */
  const reviveDead = async () => {
    if (dead(api.child)) {
      crashed('api', tail(api.output()));
      api = await spawnApi(env, slow);
    }
    for (const [i, worker] of workers.entries()) {
      if (!dead(worker.child)) continue;
      crashed(`worker ${i}`, tail(worker.output()));
      workers[i] = await spawnWorker(env, slow);
    }
    if (dead(publicServer.child)) {
      const output = publicServer.lines
        .slice(-15)
        .map((line) => JSON.stringify(line))
        .join('\n');
      crashed('public', output);
      publicServer = await spawnPublic(env, slow);
    }
  };
  const superviseLoop = async () => {
    while (!stop) {
      await sleep(1_000);
      if (injecting || stop) continue;
      injecting = true;
      try {
        await reviveDead();
      } catch (error) {
        log(`soak: could not restart a crashed process: ${(error as Error).message}`);
      } finally {
        injecting = false;
      }
    }
  };

  async function inject(kind: FaultKind): Promise<void> {
    while (injecting) await sleep(200);
    injecting = true;
    try {
      await injectNow(kind);
    } finally {
      injecting = false;
    }
  }

  async function injectNow(kind: FaultKind): Promise<void> {
    const at = Date.now();
    log(`soak: ${seconds()} s: fault ${kind}`);
    faultNow = kind;
    const recovered = () => {
      faults.push({ kind, atS: Math.round((at - started) / 1000), recoveryMs: Date.now() - at });
      log(`soak: ${seconds()} s: recovered from ${kind} in ${Date.now() - at} ms`);
      faultNow = undefined;
      lastFault = { kind, recoveredAt: Date.now() };
    };
    switch (kind) {
      case 'worker': {
        const index = faults.filter((fault) => fault.kind === 'worker').length % workers.length;
        await workers[index]!.kill();
        workers[index] = await spawnWorker(env, slow);
        await ready(`worker ${index}`, () => workers[index]!.httpUrl);
        break;
      }
      case 'api':
        api.child.kill('SIGKILL');
        await api.stop();
        api = await spawnApi(env, slow);
        await apiTakesWrites();
        break;
      case 'public':
        publicServer.child.kill('SIGKILL');
        await publicServer.stop();
        publicServer = await spawnPublic(env, slow);
        await ready('the public server', () => publicServer.url);
        break;
      case 'redis':
        await redis!.kill();
        redis = await startRedis();
        await everyoneReady();
        await apiTakesWrites();
        break;
      case 'redis-master': {
        // The master of the queues' hash tag: every BullMQ key of the platform is in its slot.
        const master = await cluster!.masterOf(queuePrefix);
        const { newMaster } = await cluster!.failOver(master);
        log(`soak: ${seconds()} s: 127.0.0.1:${newMaster} took over from 127.0.0.1:${master}`);
        await everyoneReady();
        await apiTakesWrites();
        recovered();
        // Back as a replica of the new master, so that the next kill has a replica to fail over to.
        faultNow = `${kind} (the old master rejoining)`;
        await cluster!.restart(master);
        faultNow = undefined;
        lastFault = { kind: `${kind} (rejoined)`, recoveredAt: Date.now() };
        return;
      }
      case 'postgres-restart':
        await pg.stopPrimary();
        await sleep(options.postgresDownMs ?? 5_000);
        await pg.startPrimary();
        await apiTakesWrites();
        break;
      case 'postgres-promote':
        await pg.promoteReplica();
        proxy.retarget(pg.primaryPort());
        await apiTakesWrites();
        break;
      case 'postgres-crash':
        await pg.crashPrimaryAndPromote();
        proxy.retarget(pg.primaryPort());
        await apiTakesWrites();
        break;
    }
    recovered();
  }

  const stopHangs: string[] = [];
  const load = [putLoop(), importLoop(), buildLoop(), crawlLoop(), rssLoop(), superviseLoop()];
  const loadStarted = Date.now();
  try {
    // Every kind of fault at least once, however long recoveries take; then until the time is up.
    const due = (i: number) => i < options.faults.length || Date.now() - loadStarted < options.durationMs;
    for (let i = 0; due(i); i++) {
      await sleep(options.faultEveryMs);
      if (!due(i)) break;
      const kind = options.faults[i % options.faults.length]!;
      // A replica can be promoted once: afterwards there is none.
      if (promotions.includes(kind) && faults.some((fault) => promotions.includes(fault.kind))) continue;
      await inject(kind);
    }
    stop = true;
    await Promise.all(load);
    log(`soak: ${seconds()} s: load stopped, settling`);

    // Settle: every process ready, a last full build after the last change, nothing queued or running.
    await reviveDead();
    await everyoneReady();
    const reader = new Client({ connectionString: `postgres://postgres@127.0.0.1:${pg.primaryPort()}/sitemaps` });
    await reader.connect();
    const queues: QueueRedis = cluster
      ? { cluster: cluster.nodes, prefix: `{${queuePrefix}}` }
      : { url: redis!.url, prefix: queuePrefix };
    // A settle that times out says what was left, before the teardown removes the evidence.
    const diagnose = async (error: unknown): Promise<never> => {
      const builds = await reader
        .query(
          `SELECT id, status, created_at, started_at FROM builds WHERE site_id = $1 AND status IN ('queued', 'running')`,
          [siteId],
        )
        .then((result) => result.rows)
        .catch((failure: unknown) => String(failure));
      const jobs = await leftoverJobs(queues).catch((failure: unknown) => String(failure));
      log(`soak: settling failed; builds left ${JSON.stringify(builds)}; jobs left ${JSON.stringify(jobs)}`);
      throw error;
    };
    try {
      const final = await client().post(`/v1/sites/${siteId}/builds`, { full: true });
      await client()
        .waitForBuild(siteId, final.body.buildId as string, 300_000)
        .catch(diagnose);
      await waitUntil(
        'no build left to run',
        async () =>
          (await reader.query(`SELECT 1 FROM builds WHERE site_id = $1 AND status IN ('queued', 'running')`, [siteId]))
            .rowCount === 0,
        { timeoutMs: 300_000 },
      ).catch(diagnose);
      const last = await client().post(`/v1/sites/${siteId}/builds`, { full: true });
      expectPublished(
        await client()
          .waitForBuild(siteId, last.body.buildId as string, 300_000)
          .catch(diagnose),
      );

      const stored = (
        await reader.query<{ loc: string }>('SELECT loc FROM urls WHERE site_id = $1 AND deleted_at IS NULL', [siteId])
      ).rows.map((row) => row.loc);
      const storedSet = new Set(stored);
      const published = await waitUntil(
        'the public server to serve the last build',
        async () => {
          const locs = await publishedLocs(publicServer.url);
          return locs.length === stored.length ? locs : undefined;
        },
        { timeoutMs: 60_000 },
      ).catch(() => publishedLocs(publicServer.url));
      const publishedSet = new Set(published);
      // Jobs still running when the load stopped get a minute to finish.
      const stuckJobs = await waitUntil(
        'no job left',
        async () => {
          const left = await leftoverJobs(queues);
          return Object.keys(left).length === 0 ? left : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 1_000 },
      ).catch(() => leftoverJobs(queues));
      return {
        // Filled in by the teardown below: the same array.
        stopHangs,
        durationS: seconds(),
        requests,
        clientErrors,
        clientErrorFaults,
        serverErrors,
        faults,
        recoveryByKind: recoveryByKind(faults),
        crawler,
        crashes,
        stored: stored.length,
        published: published.length,
        publishedDiff: {
          missing: stored.filter((l) => !publishedSet.has(l)).slice(0, 20),
          extra: published.filter((l) => !storedSet.has(l)).slice(0, 20),
        },
        lost: [...acked].filter((l) => !uncertain.has(l) && !storedSet.has(l)).slice(0, 20),
        stuckJobs,
        rss: [...rss.entries()].map(([name, series]) => ({ name, ...series })),
      };
    } finally {
      await reader.end();
    }
  } finally {
    stop = true;
    await Promise.allSettled(load);
    await Promise.allSettled([
      stopWithin('api', api.child, stopHangs),
      stopWithin('public', publicServer.child, stopHangs),
      ...workers.map((worker, i) => stopWithin(`worker ${i}`, worker.child, stopHangs)),
    ]);
    if (stopHangs.length > 0) log(`soak: did not exit on SIGTERM within 30 s: ${stopHangs.join(', ')}`);
    await redis?.stop();
    await cluster?.stop();
    await proxy.stop();
    await pg.stop();
    if (redisDir) await rm(redisDir, { recursive: true, force: true });
  }
}

/** SIGTERM, and SIGKILL after 30 s: a process whose shutdown hangs is named, not waited for for ever. */
async function stopWithin(name: string, child: ChildProcess, hangs: string[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const exited = stopChild(child);
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 30_000)));
  if ((await Promise.race([exited, late])) === 'late') {
    hangs.push(`${name} (pid ${child.pid})`);
    await stopChild(child, 'SIGKILL');
  }
  clearTimeout(timer);
}

const promotions: FaultKind[] = ['postgres-promote', 'postgres-crash'];

/** "12 s after" → "0–5 s after", "5–30 s after" or "30+ s after": a handful of buckets, not one per second. */
function bucketSeconds(phrase: string): string {
  const s = Number(/\d+/.exec(phrase)?.[0] ?? 0);
  return s < 5 ? '0–5 s after' : s < 30 ? '5–30 s after' : '30+ s after';
}

/** What a client was told with a refusal: the error code, and Retry-After on a 503 or 429. */
function refusal(response: { status: number; body: unknown; headers: Headers }): string {
  const code = (response.body as { error?: { code?: string } } | undefined)?.error?.code;
  const retryAfter = response.headers.get('retry-after');
  const told = response.status === 503 || response.status === 429 ? ` Retry-After ${retryAfter ?? 'missing'}` : '';
  return `${code ? ` ${code}` : ''}${told}`;
}

function recoveryByKind(faults: FaultRecord[]): SoakReport['recoveryByKind'] {
  const kinds = [...new Set(faults.map((fault) => fault.kind))];
  return kinds.map((kind) => {
    const times = faults
      .filter((fault) => fault.kind === kind)
      .map((fault) => fault.recoveryMs)
      .sort((a, b) => a - b);
    return { kind, count: times.length, medianMs: times[Math.floor(times.length / 2)]!, maxMs: times.at(-1)! };
  });
}

function expectPublished(build: { status: string; error?: string | null }): void {
  if (build.status !== 'published') throw new Error(`the last build ${build.status}: ${build.error ?? ''}`);
}

async function publishedLocs(publicUrl: string): Promise<string[]> {
  const index = await fetchFile(publicUrl, HOST, 'sitemap.xml');
  const locs: string[] = [];
  for (const shard of locsOf(index.xml))
    locs.push(...locsOf((await fetchFile(publicUrl, HOST, new URL(shard).pathname)).xml));
  return locs;
}

/**
 * Jobs that should have run by now, per queue and state: waiting, active, parents waiting for
 * children, and delayed jobs overdue by more than a minute. A delayed job not yet due (a retry's
 * backoff, a debounced build) and job schedulers' next runs are not stuck.
 */
type QueueRedis = { url: string; prefix: string } | { cluster: string; prefix: string };

async function leftoverJobs(redis: QueueRedis): Promise<Record<string, number>> {
  const left: Record<string, number> = {};
  const connection: Cluster | { url: string } =
    'cluster' in redis
      ? new Cluster(
          redis.cluster.split(',').map((node) => ({ host: '127.0.0.1', port: Number(node.split(':').pop()) })),
          { redisOptions: { maxRetriesPerRequest: null } },
        )
      : { url: redis.url };
  try {
    for (const name of Object.values(QUEUE)) await countLeftover(name, connection, redis.prefix, left);
  } finally {
    if (connection instanceof Cluster) connection.disconnect();
  }
  return left;
}

async function countLeftover(
  name: string,
  connection: Cluster | { url: string },
  prefix: string,
  left: Record<string, number>,
): Promise<void> {
  // BullMQ closes a connection it was handed only if it made it: the cluster client stays ours.
  const queue = new Queue(name, { connection, prefix });
  try {
    const counts = await queue.getJobCounts('wait', 'active', 'prioritized', 'waiting-children');
    for (const [state, n] of Object.entries(counts)) if (n > 0) left[`${name} ${state}`] = n;
    const overdue = (await queue.getDelayed()).filter(
      (job) => !job.repeatJobKey && job.timestamp + job.delay < Date.now() - 60_000,
    ).length;
    if (overdue > 0) left[`${name} delayed, overdue`] = overdue;
  } finally {
    await queue.close();
  }
}

/** RSS of a process and its children (the public server's primary forks its workers), in MB. */
function processTreeRssMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const rssOf = (id: string) =>
      Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    const kb = rssOf(String(pid)) + children.reduce((sum, child) => sum + rssOf(child), 0);
    // A process on its way out has no VmRSS any more: no sample.
    return kb > 0 ? Math.round(kb / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** The report as the lines the soak prints. */
export function formatSoakReport(report: SoakReport): string {
  const recoveries = report.faults.map((fault) => `${fault.kind} at ${fault.atS} s: ${fault.recoveryMs} ms`);
  return [
    `fault soak: ${report.durationS} s`,
    `requests: ${JSON.stringify(report.requests)}`,
    `errors seen by clients: ${JSON.stringify(report.clientErrors)}`,
    `  the fault in progress for each: ${JSON.stringify(report.clientErrorFaults)}`,
    `  5xx answers and what the API logged: ${report.serverErrors.length === 0 ? 'none' : ''}${report.serverErrors
      .map((e) => `\n  at ${e.atS} s, ${e.error}, during ${e.fault}:\n${e.log.replace(/^/gm, '    ')}`)
      .join('')}`,
    `faults (${report.faults.length}), recovery: ${recoveries.join('; ')}`,
    `recovery by kind (count, median, max): ${report.recoveryByKind
      .map((r) => `${r.kind} ${r.count}× ${(r.medianMs / 1000).toFixed(1)} s, ${(r.maxMs / 1000).toFixed(1)} s`)
      .join('; ')}`,
    `crawler: ${report.crawler.rounds} rounds, ${report.crawler.completeSets} complete sets, ${report.crawler.unavailable} while the server was down, ${report.crawler.partialSets.length} partial`,
    `stored ${report.stored}, published ${report.published}; missing ${report.publishedDiff.missing.length}, extra ${report.publishedDiff.extra.length}; acknowledged but lost ${report.lost.length}`,
    `processes that died by themselves: ${report.crashes.length}${report.crashes.map((crash) => `\n  ${crash.name} at ${crash.atS} s:\n${crash.output}`).join('')}`,
    `jobs left after settling: ${JSON.stringify(report.stuckJobs)}`,
    `did not exit on SIGTERM within 30 s: ${report.stopHangs.length > 0 ? report.stopHangs.join(', ') : 'none'}`,
    `RSS (MB, first/last/max): ${report.rss.map((p) => `${p.name} ${p.firstMb}/${p.lastMb}/${p.maxMb}`).join('; ')}`,
  ].join('\n');
}
