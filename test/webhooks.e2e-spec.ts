// Webhooks through the real API and workers: a local HTTP server stands in for a customer's
// endpoint. Every delivery is checked against the Standard Webhooks signature computed here with
// node:crypto alone (not the platform's signer), retried after 500s with exponential backoff (or
// when the receiver's Retry-After says), logged per endpoint, and an endpoint that keeps failing
// is disabled until its owner enables it. A build that fails for good delivers build.failed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobId, QUEUE } from '@sitemaps/jobs';
import { parseConfig } from '@sitemaps/config';
import { waitUntil } from '@sitemaps/testing';
import { createApiApp } from '../apps/api/src/api.app';
import { apiClient } from './support/api-client';
import { startDnsServer, type TestDnsServer } from './support/dns.server';
import { startPlatform, type Platform } from './support/platform';
import { verifySignature } from './support/webhook-signature';
import { createTenant, createTenantWithSite } from './support/tenant';

const HOST = 'hooks.example.com';
const BACKOFF_MS = 300;
const JITTER = 0.2;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** Wall-clock time (ms), to compare with an HTTP date. */
  wall: number;
}

/** A customer's endpoint: records every request and answers from a per-path script, then 200. */
class Receiver {
  readonly received: Received[] = [];
  readonly scripts = new Map<string, number[]>();
  readonly always = new Map<string, number>();
  /** Headers of the scripted answers, in step with `scripts`. */
  readonly scriptedHeaders = new Map<string, Record<string, string>[]>();
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      this.received.push({
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
        wall: Date.now(),
      });
      const status = this.scripts.get(path)?.shift() ?? this.always.get(path) ?? 200;
      const headers = this.scriptedHeaders.get(path)?.shift() ?? {};
      response
        .writeHead(status, { 'content-type': 'text/plain', ...headers })
        .end(status === 200 ? 'ok' : 'scripted failure');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  at(path: string): Received[] {
    return this.received.filter((request) => request.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('webhooks', () => {
  const receiver = new Receiver();
  let platform: Platform;
  let api: ReturnType<typeof apiClient>;
  let base: string;
  let siteId: string;
  let tenantKey: string;
  let redis: Redis;
  let webhookQueue: Queue;

  const importUrls = async (paths: string[]) => {
    const body = paths.map((path) => JSON.stringify({ loc: `https://${HOST}${path}` })).join('\n');
    const res = await api.call('POST', `/v1/sites/${siteId}/urls/import`, undefined, {
      raw: body,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(res.status).toBe(201);
    return res.body.importId as string;
  };
  const deliveries = async (webhookId: string) =>
    (await api.get(`/v1/webhooks/${webhookId}/deliveries`)).body.items as any[];
  const settled = (webhookId: string, count: number) =>
    waitUntil(`${count} finished deliveries of ${webhookId}`, async (seen) => {
      const items = seen(await deliveries(webhookId));
      return items.length >= count && items.every((item) => item.status !== 'pending') ? items : undefined;
    });

  beforeAll(async () => {
    base = await receiver.start();
    platform = await startPlatform({
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_ATTEMPTS: '3',
      WEBHOOK_BACKOFF_MS: String(BACKOFF_MS),
      WEBHOOK_DISABLE_AFTER_FAILURES: '2',
      WEBHOOK_TIMEOUT_MS: '5000',
      IMPORT_ALLOW_PRIVATE_ADDRESSES: 'true',
    });
    ({ apiKey: tenantKey, api, siteId } = await createTenantWithSite(platform.apiUrl, 'Hooks', { hostname: HOST }));
    redis = new Redis(platform.config.redisUrl, { maxRetriesPerRequest: null });
    webhookQueue = new Queue(QUEUE.webhook, { connection: redis, prefix: platform.config.queuePrefix });
  });
  afterAll(async () => {
    await webhookQueue?.close();
    redis?.disconnect();
    await platform?.close();
    await receiver.stop();
  });

  it('delivers build.published signed as Standard Webhooks says, and logs it the way it was sent', async () => {
    const created = await api.post('/v1/webhooks', {
      url: `${base}/builds`,
      eventTypes: ['build.published', 'build.failed'],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/webhooks/${created.body.id}`);
    const { id: webhookId, secret } = created.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64').length).toBe(32);
    // Shown once: no read gives it back.
    expect((await api.get(`/v1/webhooks/${webhookId}`)).body).not.toHaveProperty('secret');
    expect(JSON.stringify((await api.get('/v1/webhooks')).body)).not.toContain(secret.slice(6));

    await api.put(`/v1/sites/${siteId}/urls`, [{ loc: `https://${HOST}/a` }]);
    const buildId = (await api.post(`/v1/sites/${siteId}/builds`, {})).body.buildId;
    await api.waitForBuild(siteId, buildId);
    const [log] = await settled(webhookId, 1).then((items) =>
      items.filter((item) => item.event.data.buildId === buildId),
    );
    const request = receiver.at('/builds').find((r) => JSON.parse(r.body).data.buildId === buildId);
    expect(request).toBeDefined();
    expect(verifySignature(secret, request!)).toBe(true);
    expect(verifySignature(`whsec_${Buffer.alloc(32).toString('base64')}`, request!)).toBe(false);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    const event = JSON.parse(request!.body);
    expect(event).toEqual({
      id: request!.headers['webhook-id'],
      type: 'build.published',
      timestamp: expect.any(String),
      data: { siteId, buildId, status: 'published', error: null },
    });
    expect(log).toMatchObject({
      webhookId,
      eventId: event.id,
      eventType: 'build.published',
      status: 'succeeded',
      attempts: 1,
      responseStatus: 200,
      error: null,
      event,
    });
    expect(log.latencyMs).toBeGreaterThanOrEqual(0);

    // GraphQL shows the same log with the same event shape.
    const gql = await fetch(`${platform.apiUrl}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${(await api.post('/v1/api-keys', { name: 'r', scopes: ['read'] })).body.apiKey}`,
      },
      body: JSON.stringify({
        query:
          'query($id: ID!) { webhook(id: $id) { url enabled deliveries { nodes { eventId status attempts event } } } }',
        variables: { id: webhookId },
      }),
    }).then((res) => res.json());
    expect(gql.data.webhook.deliveries.nodes).toContainEqual({
      eventId: event.id,
      status: 'succeeded',
      attempts: 1,
      event,
    });
  });

  it('retries an event answered with 500s with exponential backoff, the same id every time, then logs it succeeded', async () => {
    const { id: webhookId, secret } = (
      await api.post('/v1/webhooks', { url: `${base}/flaky`, eventTypes: ['import.finished'] })
    ).body;
    receiver.scripts.set('/flaky', [500, 500]);
    const importId = await importUrls(['/b', '/c']);
    const [log] = await settled(webhookId, 1);
    const attempts = receiver.at('/flaky');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    expect(attempts.every((a) => a.body === attempts[0]!.body && verifySignature(secret, a))).toBe(true);
    // BullMQ's exponential backoff: the n-th retry waits delay × 2^(n-1), less at most the jitter.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(BACKOFF_MS * (1 - JITTER));
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(2 * BACKOFF_MS * (1 - JITTER));
    expect(log).toMatchObject({ status: 'succeeded', attempts: 3, responseStatus: 200, error: null });
    expect(log.event).toMatchObject({
      type: 'import.finished',
      data: { siteId, importId, source: 'upload', status: 'completed', stored: 2, rejected: 0 },
    });
    expect((await api.get(`/v1/webhooks/${webhookId}`)).body).toMatchObject({ enabled: true, consecutiveFailures: 0 });
  });

  it('waits as long as the receiver’s Retry-After says, in seconds or as an HTTP date, before the next attempt', async () => {
    const { id: webhookId } = (await api.post('/v1/webhooks', { url: `${base}/busy`, eventTypes: ['import.finished'] }))
      .body;
    receiver.scripts.set('/busy', [503, 429]);
    // Well past the 2 s and what the queue's own backoff (BACKOFF_MS, then twice that) would add.
    const date = new Date(Date.now() + 8_000).toUTCString();
    receiver.scriptedHeaders.set('/busy', [{ 'retry-after': '2' }, { 'retry-after': date }]);
    await importUrls(['/ra']);
    const [log] = await settled(webhookId, 1);
    const attempts = receiver.at('/busy');
    expect(attempts).toHaveLength(3);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(2_000);
    expect(attempts[2]!.wall).toBeGreaterThanOrEqual(Date.parse(date));
    expect(log).toMatchObject({ status: 'succeeded', attempts: 3, responseStatus: 200 });
  });

  it('disables an endpoint after the configured deliveries fail for good in a row; its owner re-enables it', async () => {
    const { id: webhookId } = (await api.post('/v1/webhooks', { url: `${base}/down`, eventTypes: ['import.finished'] }))
      .body;
    receiver.always.set('/down', 500);
    await importUrls(['/d']);
    const [first] = await settled(webhookId, 1);
    expect(first).toMatchObject({
      status: 'failed',
      attempts: 3,
      responseStatus: 500,
      error: expect.stringContaining('500'),
    });
    expect((await api.get(`/v1/webhooks/${webhookId}`)).body).toMatchObject({ enabled: true, consecutiveFailures: 1 });

    await importUrls(['/e']);
    await settled(webhookId, 2);
    const disabled = (await api.get(`/v1/webhooks/${webhookId}`)).body;
    expect(disabled).toMatchObject({
      enabled: false,
      consecutiveFailures: 2,
      disabledReason: 'failures',
      disabledAt: expect.any(String),
    });
    expect(receiver.at('/down')).toHaveLength(6);

    // Disabled: a new event is not even logged for it.
    const third = await importUrls(['/f']);
    await waitUntil('the other endpoint to receive the third import', () =>
      receiver.at('/flaky').some((r) => JSON.parse(r.body).data.importId === third),
    );
    expect(await deliveries(webhookId)).toHaveLength(2);

    // The owner fixes the receiver, checks it with a test event (allowed while disabled), and enables it.
    receiver.always.delete('/down');
    const test = await api.post(`/v1/webhooks/${webhookId}/test`);
    expect(test.status).toBe(202);
    expect(test.headers.get('location')).toBe(`/v1/webhooks/${webhookId}/deliveries/${test.body.id}`);
    const tested = await waitUntil('the test delivery', async () => {
      const res = await api.get(test.headers.get('location')!);
      return res.body.status === 'succeeded' ? res.body : undefined;
    });
    expect(tested.event).toMatchObject({ type: 'webhook.test', data: { endpointId: webhookId } });
    const enabled = await api.patch(`/v1/webhooks/${webhookId}`, { enabled: true });
    expect(enabled.body).toMatchObject({
      enabled: true,
      consecutiveFailures: 0,
      disabledReason: null,
      disabledAt: null,
    });
    const fourth = await importUrls(['/g']);
    const log = await waitUntil('delivery of the fourth import', async () =>
      (await deliveries(webhookId)).find((d) => d.event.data.importId === fourth && d.status === 'succeeded'),
    );
    expect(log).toMatchObject({ attempts: 1, responseStatus: 200 });
  });

  it('delivers import.finished for a sitemaps import too, failed ones included', async () => {
    const { id: webhookId } = (
      await api.post('/v1/webhooks', { url: `${base}/imports`, eventTypes: ['import.finished'] })
    ).body;
    // The receiver answers "ok" to anything: not a sitemap, so the import fails, and says so.
    const queued = await api.post(`/v1/sites/${siteId}/imports/sitemaps`, { url: `${base}/sitemap.xml` });
    expect(queued.status).toBe(202);
    const [log] = await settled(webhookId, 1);
    expect(log).toMatchObject({ status: 'succeeded', eventType: 'import.finished' });
    expect(log.event.data).toMatchObject({
      siteId,
      importId: queued.body.importId,
      source: 'sitemaps',
      status: 'failed',
      error: expect.any(String),
    });
    expect((await api.get(`/v1/sites/${siteId}/imports/${queued.body.importId}`)).body.status).toBe('failed');
  });

  it('keeps URL credentials out of failure reasons, and what a name resolves to out of delivery logs', async () => {
    const failed = async (url: string) => {
      const { id } = (await api.post('/v1/webhooks', { url, eventTypes: ['build.failed'] })).body;
      const test = await api.post(`/v1/webhooks/${id}/test`);
      expect(test.status).toBe(202);
      const delivery = await waitUntil('the test delivery to fail for good', async (seen) => {
        const res = seen(await api.get(`/v1/webhooks/${id}/deliveries/${test.body.id}`));
        return res.body.status === 'failed' ? res.body : undefined;
      });
      return { delivery, job: await webhookQueue.getJob(jobId.deliverWebhook(test.body.id)) };
    };

    // user:password@ and ?token= are the customer's: the queue board shows failure reasons to operators.
    receiver.always.set('/secretive?token=s3cret&site=1', 500);
    const withSecrets = `${base.replace('http://', 'http://hook-user:hunter2@')}/secretive?token=s3cret&site=1`;
    const { job } = await failed(withSecrets);
    const reasons = [job?.failedReason ?? '', ...(job?.stacktrace ?? [])].join('\n');
    expect(job?.failedReason).toContain('token=REDACTED&site=1');
    expect(reasons).not.toMatch(/hunter2|s3cret|hook-user/);

    // A name that resolves inside the platform: the tenant reads "refused", not the address.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { delivery } = await failed(`http://localhost:${port}/hook`);
    expect(delivery.error).toContain('refused');
    expect(delivery.error).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it('keeps no secret with an Idempotency-Key: a replay answers without it, and the stored answer has none', async () => {
    const create = () =>
      api.call(
        'POST',
        '/v1/webhooks',
        { url: `${base}/idem`, eventTypes: ['build.failed'] },
        {
          headers: { 'idempotency-key': 'create-hook-1' },
        },
      );
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_/);
    const replay = await create();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.body).not.toHaveProperty('secret');
    const db = new Client({ connectionString: platform.db.url });
    await db.connect();
    try {
      const stored = await db.query<{ body: string }>(
        "SELECT body::text AS body FROM idempotency_keys WHERE key = 'create-hook-1'",
      );
      expect(stored.rows).toHaveLength(1);
      expect(stored.rows[0]!.body).not.toContain(first.body.secret);
    } finally {
      await db.end();
    }
  });

  it('refuses a malformed secret and, by default, an address inside the platform', async () => {
    const badSecret = await api.post('/v1/webhooks', {
      url: `${base}/x`,
      eventTypes: ['build.failed'],
      secret: 'whsec_short',
    });
    expect(badSecret.status).toBe(400);
    expect(badSecret.body.error.details).toEqual([
      expect.objectContaining({ field: 'secret', code: 'INVALID_SECRET' }),
    ]);
    const ownSecret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const set = await api.post('/v1/webhooks', { url: `${base}/x`, eventTypes: ['build.failed'], secret: ownSecret });
    expect(set.status).toBe(201);
    expect(set.body.secret).toBe(ownSecret);
    expect((await api.post('/v1/webhooks', { url: `${base}/x`, eventTypes: ['nope'] })).status).toBe(400);

    const strict = await createApiApp(parseConfig({ ...platform.env, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' }));
    await strict.listen(0, '127.0.0.1');
    try {
      const client = apiClient((await strict.getUrl()).replace('[::1]', '127.0.0.1'), tenantKey);
      for (const url of [`${base}/x`, 'http://10.1.2.3/hook', 'http://[::1]/hook', 'https://localhost/hook']) {
        const refused = await client.post('/v1/webhooks', { url, eventTypes: ['build.failed'] });
        expect(refused.status, url).toBe(400);
        expect(refused.body.error).toMatchObject({
          code: 'WEBHOOK_URL_REFUSED',
          details: [expect.objectContaining({ field: 'url' })],
        });
      }
    } finally {
      await strict.close();
    }
  });
});

// The verification checks (SITE_VERIFICATION=on, a real DNS server on 127.0.0.1) tell the owner's
// endpoints when a hostname is proven and when the proof has been gone past the grace period.
describe('webhooks for hostname verification', () => {
  const receiver = new Receiver();
  let dns: TestDnsServer;
  let platform: Platform;
  let receiverBase: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    const base = await receiver.start();
    platform = await startPlatform({
      SITE_VERIFICATION: 'on',
      VERIFICATION_DNS_SERVERS: dns.address,
      VERIFICATION_ALLOW_PRIVATE_ADDRESSES: 'true',
      VERIFICATION_RETRY_MS: '200',
      VERIFICATION_RECHECK_MS: '400',
      VERIFICATION_GRACE_MS: '1500',
      VERIFICATION_SWEEP_MS: '100',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_BACKOFF_MS: String(BACKOFF_MS),
    });
    receiverBase = base;
  });
  afterAll(async () => {
    await platform?.close();
    await dns?.close();
    await receiver.stop();
  });

  it('delivers site.verified, then site.verification_lost once the TXT record has gone past the grace period', async () => {
    const { api: owner } = await createTenant(platform.apiUrl, 'Verified');
    const { secret } = (
      await owner.post('/v1/webhooks', {
        url: `${receiverBase}/sites`,
        eventTypes: ['site.verified', 'site.verification_lost'],
      })
    ).body;
    const host = 'proven.example.com';
    const site = (await owner.post('/v1/sites', { hostname: host })).body;
    const events = () => receiver.at('/sites').map((request) => ({ request, event: JSON.parse(request.body) }));

    dns.setTxt(`_sitemaps-challenge.${host}`, [site.verification.token]);
    const verified = await waitUntil('site.verified at the endpoint', () =>
      events().find(({ event }) => event.type === 'site.verified'),
    );
    expect(verified.event).toMatchObject({ data: { siteId: site.id, hostname: host, reason: null } });
    expect(verifySignature(secret, verified.request)).toBe(true);

    dns.remove(`_sitemaps-challenge.${host}`);
    const lost = await waitUntil(
      'site.verification_lost at the endpoint',
      () => events().find(({ event }) => event.type === 'site.verification_lost'),
      { timeoutMs: 30_000 },
    );
    expect(lost.event).toMatchObject({ data: { siteId: site.id, hostname: host, reason: expect.any(String) } });
    expect(verifySignature(secret, lost.request)).toBe(true);
    expect(events().filter(({ event }) => event.type === 'site.verified')).toHaveLength(1);
  });
});

describe('webhooks of a build that fails', () => {
  const receiver = new Receiver();
  let platform: Platform;
  let scratch: string;

  beforeAll(async () => {
    const base = await receiver.start();
    // The file store's root is a regular file: every shard render fails to write, so the build fails for good.
    scratch = await mkdtemp(path.join(tmpdir(), 'failing-store-'));
    await writeFile(path.join(scratch, 'not-a-directory'), '');
    platform = await startPlatform({
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: path.join(scratch, 'not-a-directory'),
      // The failing renders are the point: their error lines are not.
      LOG_LEVEL: 'fatal',
    });
    const { api } = await createTenant(platform.apiUrl, 'Failing');
    Object.assign(context, { api, base });
  });
  afterAll(async () => {
    await platform?.close();
    await receiver.stop();
    await rm(scratch, { recursive: true, force: true });
  });
  const context = {} as { api: ReturnType<typeof apiClient>; base: string };

  it('delivers build.failed, signed, with the build’s error', async () => {
    const { api, base } = context;
    const { id: webhookId, secret } = (
      await api.post('/v1/webhooks', { url: `${base}/failures`, eventTypes: ['build.failed'] })
    ).body;
    const siteId = (await api.post('/v1/sites', { hostname: 'failing.example.com' })).body.id as string;
    await api.put(`/v1/sites/${siteId}/urls`, [{ loc: 'https://failing.example.com/a' }]);
    const buildId = (await api.post(`/v1/sites/${siteId}/builds`, {})).body.buildId as string;
    const build = await api.waitForBuild(siteId, buildId);
    expect(build).toMatchObject({ status: 'failed', error: expect.any(String) });

    // The PUT's own change-triggered build fails too, and says so in an event of its own.
    const request = await waitUntil('build.failed of the build at the endpoint', () =>
      receiver.at('/failures').find((r) => JSON.parse(r.body).data.buildId === buildId),
    );
    expect(verifySignature(secret, request)).toBe(true);
    expect(JSON.parse(request.body)).toEqual({
      id: request.headers['webhook-id'],
      type: 'build.failed',
      timestamp: expect.any(String),
      data: { siteId, buildId, status: 'failed', error: build.error },
    });
    const log = await waitUntil('the delivery logged', async () => {
      const items = (await api.get(`/v1/webhooks/${webhookId}/deliveries`)).body.items as any[];
      return items.find((item) => item.status === 'succeeded' && item.event.data.buildId === buildId);
    });
    expect(log).toMatchObject({ eventType: 'build.failed', attempts: 1, responseStatus: 200 });
  }, 180_000);
});
