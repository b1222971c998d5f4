// What an operator sees of a running platform: the api and the worker as production runs them
// (processes of their own, JSON logs on stdout), driven through the REST API as a client would.
// One line per API request with its request id (the client's, echoed back, or a new one), its
// tenant, route, status and duration; job lines with queue, job id, site and build; no key ever
// in a log; /metrics with the counts of what happened; the queue board behind the admin key.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentSiteVerification } from '@sitemaps/config';
import { QUEUE } from '@sitemaps/jobs';
import {
  createTestDatabase,
  rawRequest,
  testRedisUrl,
  uniqueQueuePrefix,
  waitUntil,
  type TestDatabase,
} from '@sitemaps/testing';
import { spawnApi, type ApiProcess } from './support/api-process';
import { apiClient } from './support/api-client';
import { ADMIN_KEY } from './support/platform';
import { spawnPublic } from './support/public-process';
import { spawnWorker, type WorkerProcess } from './support/worker-process';

const HOST = 'observed.example.com';

type Line = Record<string, unknown>;

function jsonLines(output: string): Line[] {
  return output
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as Line);
}

/** The value of one sample of a Prometheus text exposition, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`)))
      return Number(line.split(' ').at(-1));
  }
  return 0;
}

async function scrape(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

describe('observability', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let api: ApiProcess;
  let worker: WorkerProcess;
  let metricsUrl: string;
  let tenantKey: string;
  let tenantId: string;
  let siteId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      ADMIN_API_KEY: ADMIN_KEY,
      QUEUE_PREFIX: uniqueQueuePrefix('obs'),
      LOG_LEVEL: 'info',
      BUILD_QUIET_MS: '100',
      INDEXNOW_ENDPOINTS: 'off',
      SITE_VERIFICATION: developmentSiteVerification(),
      API_AUTH_FAILURE_POINTS: '100000',
    };
    [api, worker] = await Promise.all([spawnApi({ ...env, API_METRICS_PORT: '0' }), spawnWorker(env)]);
    const started = jsonLines(api.output()).find((line) => String(line.msg).startsWith('api listening'));
    metricsUrl = `http://127.0.0.1:${String(started?.metricsPort)}`;
  }, 120_000);

  afterAll(async () => {
    if (process.env.OBS_DEBUG) console.log(worker?.output().slice(-6000));
    await api?.stop();
    await worker?.stop();
    await db?.drop();
  });

  it('logs one line per request with the client request id, echoed back, and the route, status and duration', async () => {
    const admin = apiClient(api.url, ADMIN_KEY);
    const created = await admin.call(
      'POST',
      '/v1/tenants',
      { name: 'Observed' },
      { headers: { 'x-request-id': 'client-req-0001' } },
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe('client-req-0001');
    tenantKey = created.body.apiKey;
    tenantId = created.body.tenant?.id ?? created.body.id;

    const line = await waitUntil('the request line', () =>
      jsonLines(api.output()).find((l) => l.msg === 'request' && l.requestId === 'client-req-0001'),
    );
    expect(line).toMatchObject({
      level: 'info',
      app: 'api',
      method: 'POST',
      route: '/v1/tenants',
      url: '/v1/tenants',
      status: 201,
    });
    expect(typeof line.ms).toBe('number');
  });

  it('makes up a request id when the client sends none (or an unusable one), and names the tenant', async () => {
    const tenant = apiClient(api.url, tenantKey);
    const site = await tenant.call(
      'POST',
      '/v1/sites',
      { hostname: HOST, scheme: 'https' },
      { headers: { 'x-request-id': 'no spaces\tallowed' } },
    );
    expect(site.status).toBe(201);
    siteId = site.body.id;
    const id = site.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const line = await waitUntil('the request line', () =>
      jsonLines(api.output()).find((l) => l.msg === 'request' && l.requestId === id),
    );
    expect(line).toMatchObject({ route: '/v1/sites', status: 201, tenantId: expect.any(String) });
    if (tenantId) expect(line.tenantId).toBe(tenantId);
  });

  it('never writes an API key to the log, not even a refused one', async () => {
    const wrong = 'sk_live_not_a_real_key_0123456789abcdef';
    expect((await apiClient(api.url, wrong).get('/v1/sites')).status).toBe(401);
    await waitUntil('the refused request line', () =>
      jsonLines(api.output()).find((l) => l.msg === 'request' && l.status === 401),
    );
    const output = api.output() + worker.output();
    for (const key of [ADMIN_KEY, tenantKey, wrong]) expect(output).not.toContain(key);
  });

  it('counts requests, URLs ingested and rejected, an import, a build and its shards in /metrics', async () => {
    const tenant = apiClient(api.url, tenantKey);
    const put = await tenant.put(`/v1/sites/${siteId}/urls`, [
      { loc: `https://${HOST}/a` },
      { loc: `https://${HOST}/b` },
      { loc: `https://${HOST}/c` },
      { loc: 'https://elsewhere.example.org/x' },
    ]);
    expect(put.status).toBe(200);
    expect(put.body.upserted).toBe(3);
    expect(put.body.errors).toHaveLength(1);

    const ndjson = [`{"loc":"https://${HOST}/d"}`, `{"loc":"https://${HOST}/e"}`, '{"loc":"not a url"}'].join('\n');
    const imported = await fetch(`${api.url}/v1/sites/${siteId}/urls/import`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tenantKey}`,
        'content-type': 'application/x-ndjson',
        'content-encoding': 'gzip',
      },
      body: gzipSync(ndjson),
    });
    expect(imported.status).toBe(201);

    const build = await tenant.post(`/v1/sites/${siteId}/builds`, { full: true });
    expect(build.status).toBe(202);
    const done = await tenant.waitForBuild(siteId, build.body.buildId);
    expect(done.status).toBe('published');

    const apiMetrics = await scrape(metricsUrl);
    expect(sample(apiMetrics, 'sitemaps_urls_ingested_total', { via: 'api' })).toBe(3);
    expect(sample(apiMetrics, 'sitemaps_urls_rejected_total', { via: 'api' })).toBe(1);
    expect(sample(apiMetrics, 'sitemaps_urls_ingested_total', { via: 'upload' })).toBe(2);
    expect(sample(apiMetrics, 'sitemaps_urls_rejected_total', { via: 'upload' })).toBe(1);
    expect(
      sample(apiMetrics, 'sitemaps_http_requests_total', {
        method: 'PUT',
        route: '/v1/sites/:siteId/urls',
        status: '200',
      }),
    ).toBe(1);
    expect(
      sample(apiMetrics, 'sitemaps_http_requests_total', { method: 'POST', route: '/v1/tenants', status: '201' }),
    ).toBe(1);
    expect(
      sample(apiMetrics, 'sitemaps_http_request_duration_seconds_count', {
        method: 'PUT',
        route: '/v1/sites/:siteId/urls',
      }),
    ).toBe(1);
    expect(sample(apiMetrics, 'sitemaps_pg_pool_connections', { pool: 'api', state: 'total' })).toBeGreaterThan(0);
    expect(apiMetrics).toContain('nodejs_heap_size_used_bytes');

    // The full build renders every shard; the change builds before it may have published too.
    const workerMetrics = await waitUntil('the publish to be counted', async () => {
      const text = await scrape(worker.httpUrl);
      return sample(text, 'sitemaps_build_duration_seconds_count', { outcome: 'published' }) >= 1 ? text : undefined;
    });
    expect(sample(workerMetrics, 'sitemaps_shards_total', { result: 'rendered' })).toBeGreaterThanOrEqual(1);
    expect(
      sample(workerMetrics, 'sitemaps_build_stage_duration_seconds_count', { stage: 'gzip' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(workerMetrics, 'sitemaps_build_stage_duration_seconds_count', { stage: 'publish' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(workerMetrics, 'sitemaps_queue_jobs', { queue: 'publish', state: 'completed' }),
    ).toBeGreaterThanOrEqual(1);
    expect(workerMetrics).toMatch(/sitemaps_queue_jobs\{[^}]*queue="shard"[^}]*state="failed"[^}]*\} 0/);
    expect(workerMetrics).toContain('sitemaps_webhook_deliveries_total');
    expect(workerMetrics).toContain('sitemaps_indexnow_submissions_total');

    // Job lines name the queue, the job, the site and the build.
    const jobLine = jsonLines(worker.output()).find(
      (l) => l.msg === 'job done' && l.queue === 'publish' && l.buildId === build.body.buildId,
    );
    expect(jobLine).toMatchObject({
      app: 'worker',
      level: 'info',
      siteId,
      jobId: `publish-${build.body.buildId}`,
      job: 'publish-build',
    });
  }, 180_000);

  it('counts the public answers of every cluster process in one scrape, by status and cache', async () => {
    const server = await spawnPublic({ ...env, PUBLIC_WORKERS: '2', PUBLIC_METRICS_PORT: '0' });
    try {
      const started = await server.waitForLine((line) => typeof line.metricsPort === 'number');
      const publicMetrics = `http://127.0.0.1:${String(started.metricsPort)}`;
      const statuses: number[] = [];
      // Fresh connections: the primary hands them to both workers in turn.
      for (let i = 0; i < 6; i++)
        statuses.push(
          (await rawRequest(server.url, '/sitemap.xml', { host: HOST, headers: { connection: 'close' } })).status,
        );
      statuses.push(
        (await rawRequest(server.url, '/nothing-here.xml', { host: HOST, headers: { connection: 'close' } })).status,
      );
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 404]);
      // Access lines are written in batches: wait for all seven.
      const answered = await waitUntil('the access lines', () => {
        const lines = server.lines.filter((line) => line.msg === 'request');
        return lines.length >= statuses.length ? lines : undefined;
      });
      expect(new Set(answered.map((line) => line.pid)).size).toBe(2);

      const text = await scrape(publicMetrics);
      const ok =
        sample(text, 'sitemaps_public_responses_total', { status: '200', cache: 'hit' }) +
        sample(text, 'sitemaps_public_responses_total', { status: '200', cache: 'miss' });
      expect(ok).toBe(6);
      // The first request of each process loads the site: a miss; later ones are answered from memory.
      expect(sample(text, 'sitemaps_public_responses_total', { status: '200', cache: 'hit' })).toBeGreaterThanOrEqual(
        2,
      );
      expect(sample(text, 'sitemaps_public_responses_total', { status: '404', cache: 'hit' })).toBe(1);
      expect(
        sample(text, 'sitemaps_pg_pool_connections', { pool: 'public-blobs', state: 'total' }),
      ).toBeGreaterThanOrEqual(0);
      expect(text).toContain('nodejs_heap_size_used_bytes');
    } finally {
      await server.stop();
    }
  });

  describe('queue board', () => {
    const basic = (password: string) => `Basic ${Buffer.from(`ops:${password}`).toString('base64')}`;

    it('refuses without the admin key, asking a browser for it', async () => {
      const anonymous = await fetch(`${api.url}/admin/queues`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      for (const authorization of [
        `Bearer ${tenantKey}`,
        basic(tenantKey),
        basic('wrong-admin-key-0000'),
        'Basic !!!',
      ]) {
        expect((await fetch(`${api.url}/admin/queues/api/queues`, { headers: { authorization } })).status).toBe(401);
      }
    });

    it("takes actions from the board's own pages only, not from another site with the browser's credentials", async () => {
      const add = (headers: Record<string, string>) =>
        fetch(`${api.url}/admin/queues/api/queues/${QUEUE.indexnow}/add`, {
          method: 'POST',
          headers: { authorization: basic(ADMIN_KEY), ...headers },
        });
      // What a page of another origin sends with mode: 'no-cors': no body, the cached Basic credentials.
      for (const headers of [
        { origin: 'https://attacker.example.net', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
        { origin: 'https://attacker.example.net' },
        { 'sec-fetch-site': 'same-site' },
      ] as Record<string, string>[]) {
        const refused = await add(headers);
        expect(refused.status, JSON.stringify(headers)).toBe(403);
        expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('CROSS_SITE_REQUEST');
      }
      // The board's own page, and a script (no browser headers), still act.
      const own = new URL(api.url).host;
      for (const headers of [
        { 'sec-fetch-site': 'same-origin', origin: `http://${own}` },
        { origin: `http://${own}` },
        {},
      ] as Record<string, string>[])
        expect((await add(headers)).status, JSON.stringify(headers)).not.toBe(403);
    });

    it('serves the board and its queues with the admin key, as Basic auth or a bearer token', async () => {
      const page = await fetch(`${api.url}/admin/queues`, { headers: { authorization: basic(ADMIN_KEY) } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const queues = await fetch(`${api.url}/admin/queues/api/queues`, {
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
      });
      expect(queues.status).toBe(200);
      const body = (await queues.json()) as { queues: { name: string }[] };
      expect(body.queues.map((queue) => queue.name).sort()).toEqual(Object.values(QUEUE).sort());
    });
  });
});
