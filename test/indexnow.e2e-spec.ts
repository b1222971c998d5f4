// IndexNow through the real workers: after each publish the changed URLs reach a local HTTP
// server standing in for the search engines' endpoint, in batches of at most 10,000, with the
// site's key; answers are recorded on the build, and retried or not as the protocol says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, waitUntil } from '@sitemaps/testing';
import { JOB, jobId, QUEUE } from '@sitemaps/jobs';
import { startPlatform, type Platform } from './support/platform';
import { createTenant, type ApiClient } from './support/tenant';
import type { IndexNowResult } from '../apps/worker/src/indexnow/indexnow.submitter';

const HOST = 'shop.example.com';
const url = (path: string) => `https://${HOST}${path}`;

interface Received {
  method: string;
  path: string;
  contentType: string | undefined;
  body: { host: string; key: string; keyLocation: string; urlList: string[] };
}

/** The search engines' endpoint: records every request, answers from a script, then 200. */
class IndexNowEndpoint {
  readonly received: Received[] = [];
  readonly script: { status: number; headers?: Record<string, string> }[] = [];
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        contentType: request.headers['content-type'],
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'],
      });
      const answer = this.script.shift() ?? { status: 200 };
      response
        .writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers })
        .end(answer.status === 200 ? '' : 'scripted');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/indexnow`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('IndexNow submissions after publish', () => {
  const endpoint = new IndexNowEndpoint();
  let platform: Platform;
  let api: ApiClient;
  let db: Client;
  let redis: Redis;
  let queue: Queue;
  let siteId: string;
  let key: string;
  let firstBuildId: string;

  beforeAll(async () => {
    // Builds run only when a test asks: change-triggered ones would publish at moments of their own.
    platform = await startPlatform({
      INDEXNOW_ENDPOINTS: await endpoint.start(),
      BUILD_QUIET_MS: '600000',
      BUILD_MAX_WAIT_MS: '600000',
    });
    ({ api } = await createTenant(platform.apiUrl, 'Shop'));
    const site = (await api.post('/v1/sites', { hostname: HOST })).body;
    siteId = site.id;
    key = site.indexNowKey;
    db = new Client({ connectionString: platform.db.url });
    await db.connect();
    redis = new Redis(platform.config.redisUrl, { maxRetriesPerRequest: null });
    queue = new Queue(QUEUE.indexnow, { connection: redis, prefix: platform.config.queuePrefix });
  });
  afterAll(async () => {
    await queue?.close();
    redis?.disconnect();
    await db?.end();
    await platform?.close();
    await endpoint.stop();
  });

  async function publish(full = false): Promise<string> {
    const { body } = await api.post(`/v1/sites/${siteId}/builds`, { full });
    expect(await api.waitForBuild(siteId, body.buildId)).toMatchObject({ status: 'published' });
    return body.buildId as string;
  }

  /**
   * The build's IndexNow record once its drain has run, every submission has settled (done, or
   * failed for good) and `expected` requests are recorded. A deadline, never a sleep.
   */
  function settled(buildId: string, expected: number, timeoutMs = 60_000): Promise<IndexNowResult[]> {
    return waitUntil(
      `IndexNow of build ${buildId} to settle with ${expected} requests`,
      async (seen) => {
        const { rows } = await db.query<{ indexnow: IndexNowResult[] | null }>(
          'SELECT indexnow FROM builds WHERE id = $1',
          [buildId],
        );
        const results = rows[0]?.indexnow;
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
        seen({ results, counts });
        const busy = Object.values(counts).reduce((sum, count) => sum + count, 0);
        return results && busy === 0 && results.length >= expected ? results : undefined;
      },
      { timeoutMs },
    );
  }

  const putUrls = async (entries: { loc: string; priority?: number }[]) => {
    for (let start = 0; start < entries.length; start += 10_000) {
      const { status, body } = await api.put(`/v1/sites/${siteId}/urls`, entries.slice(start, start + 10_000));
      expect([status, body.errors]).toEqual([200, []]);
    }
  };

  it('submits a change of 25,000 URLs as 10,000 + 10,000 + 5,000 with the site key', async () => {
    const locs = Array.from({ length: 25_000 }, (_, i) => url(`/p/${i}`));
    await putUrls(locs.map((loc) => ({ loc })));
    const buildId = await publish();
    firstBuildId = buildId;
    const results = await settled(buildId, 3);

    expect(endpoint.received).toHaveLength(3);
    for (const request of endpoint.received) {
      expect({ method: request.method, path: request.path, contentType: request.contentType }).toEqual({
        method: 'POST',
        path: '/indexnow',
        contentType: 'application/json; charset=utf-8',
      });
      expect(request.body).toMatchObject({ host: HOST, key, keyLocation: `https://${HOST}/${key}.txt` });
    }
    expect(endpoint.received.map((request) => request.body.urlList.length).sort((a, b) => b - a)).toEqual([
      10_000, 10_000, 5_000,
    ]);
    const submitted = endpoint.received.flatMap((request) => request.body.urlList);
    expect(new Set(submitted).size).toBe(25_000);
    expect(new Set(submitted)).toEqual(new Set(locs));

    expect(
      results
        .map(({ batch, urlCount, attempt, status, host }) => ({ batch, urlCount, attempt, status, host }))
        .sort((a, b) => a.batch - b.batch),
    ).toEqual([
      { batch: 1, urlCount: 10_000, attempt: 1, status: 200, host: HOST },
      { batch: 2, urlCount: 10_000, attempt: 1, status: 200, host: HOST },
      { batch: 3, urlCount: 5_000, attempt: 1, status: 200, host: HOST },
    ]);
    // The key location the engines will check is served by the platform, as the key alone.
    const keyFile = await rawRequest(platform.publicUrl, `/${key}.txt`, { host: HOST });
    expect([keyFile.status, keyFile.body.toString()]).toEqual([200, key]);
  });

  it('submits nothing twice when a drain runs again (a retried or doubled job)', async () => {
    const before = endpoint.received.length;
    const drained = await queue.getJob(jobId.drainIndexNow(firstBuildId));
    expect(drained?.data).toMatchObject({ siteId, buildId: firstBuildId, from: null });
    const again = await queue.add(JOB.drainIndexNow, drained?.data, {
      jobId: `${jobId.drainIndexNow(firstBuildId)}-again`,
    });
    await waitUntil('the second drain to complete', async (seen) => seen(await again.getState()) === 'completed', {
      timeoutMs: 30_000,
    });
    expect(await settled(firstBuildId, 3)).toHaveLength(3);
    expect(endpoint.received.length).toBe(before);
  });

  it('submits nothing for an unchanged rebuild', async () => {
    const before = endpoint.received.length;
    const buildId = await publish(true);
    expect(await settled(buildId, 0)).toEqual([]);
    expect(endpoint.received.length).toBe(before);
  });

  it('submits a deleted URL', async () => {
    const before = endpoint.received.length;
    const { body } = await api.delete(`/v1/sites/${siteId}/urls`, { locs: [url('/p/7')] });
    expect(body.deleted).toBe(1);
    const buildId = await publish();
    expect(await settled(buildId, 1)).toMatchObject([{ status: 200, urlCount: 1, attempt: 1 }]);
    expect(endpoint.received.slice(before).map((request) => request.body.urlList)).toEqual([[url('/p/7')]]);
  });

  it('retries a 429 after the Retry-After it names, and records both attempts', async () => {
    const before = endpoint.received.length;
    endpoint.script.push({ status: 429, headers: { 'retry-after': '1' } });
    await putUrls([{ loc: url('/p/8'), priority: 0.9 }]);
    const buildId = await publish();
    const results = await settled(buildId, 2);
    expect(results.map(({ attempt, status }) => ({ attempt, status }))).toEqual([
      { attempt: 1, status: 429 },
      { attempt: 2, status: 200 },
    ]);
    expect(results[0]?.error).toBe('scripted');
    const requests = endpoint.received.slice(before);
    expect(requests.map((request) => request.body.urlList)).toEqual([[url('/p/8')], [url('/p/8')]]);
  });

  it('records a 422 and does not retry it', async () => {
    const before = endpoint.received.length;
    endpoint.script.push({ status: 422 });
    await putUrls([{ loc: url('/p/9'), priority: 0.8 }]);
    const buildId = await publish();
    expect(await settled(buildId, 1)).toMatchObject([{ attempt: 1, status: 422, error: 'scripted', urlCount: 1 }]);
    const failed = await queue.getFailed();
    const job = failed.find((candidate) => (candidate.data as { buildId?: string }).buildId === buildId);
    expect(job?.attemptsMade).toBe(1);
    expect(endpoint.received.length - before).toBe(1);
  });
});
