// Behind a load balancer every client arrives from the balancer's address. With TRUSTED_PROXIES the
// api and the public server take the client's address from X-Forwarded-For, but only when the
// peer is one of those proxies: a client that sends the header itself is still itself. The failed-
// authentication limiter, the request and access logs and the audit log all see that address.
// Two loopback addresses play the parts (Linux routes all of 127/8 to lo): 127.0.0.1 is the
// trusted proxy, 127.0.0.2 a client that connects directly and forges the header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentSiteVerification } from '@sitemaps/config';
import {
  createTestDatabase,
  rawRequest,
  testRedisUrl,
  uniqueQueuePrefix,
  waitUntil,
  type TestDatabase,
} from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { spawnApi, type ApiProcess } from './support/api-process';
import { ADMIN_KEY } from './support/platform';
import { spawnPublic, type PublicProcess } from './support/public-process';
import { createTenant } from './support/tenant';

const PROXY = '127.0.0.1';
const DIRECT = '127.0.0.2';
const HOST = 'proxied.example.com';

type Line = Record<string, unknown>;

function jsonLines(output: string): Line[] {
  return output
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as Line);
}

describe('TRUSTED_PROXIES', () => {
  let db: TestDatabase;
  let api: ApiProcess;
  let publicServer: PublicProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      ADMIN_API_KEY: ADMIN_KEY,
      QUEUE_PREFIX: uniqueQueuePrefix('proxy'),
      LOG_LEVEL: 'info',
      INDEXNOW_ENDPOINTS: 'off',
      SITE_VERIFICATION: developmentSiteVerification(),
      API_AUTH_FAILURE_POINTS: '3',
      TRUSTED_PROXIES: `${PROXY}/32`,
    };
    [api, publicServer] = await Promise.all([spawnApi(env), spawnPublic({ ...env, PUBLIC_WORKERS: '1' })]);
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await publicServer?.stop();
    await db?.drop();
  });

  /** A request to the api from `from`, with the client address a proxy would add. */
  function toApi(
    from: string,
    method: string,
    path: string,
    opts: { key?: string; forwardedFor?: string; body?: unknown; requestId?: string } = {},
  ) {
    return rawRequest(api.url, path, {
      method,
      localAddress: from,
      headers: {
        ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
        ...(opts.forwardedFor ? { 'x-forwarded-for': opts.forwardedFor } : {}),
        ...(opts.requestId ? { 'x-request-id': opts.requestId } : {}),
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  }

  it('audits and logs the forwarded client through a trusted proxy, the peer itself otherwise', async () => {
    // A chain: the client named itself 10.9.9.9, which nobody vouches for; the proxy saw 198.51.100.7.
    const proxied = await toApi(PROXY, 'POST', '/v1/tenants', {
      key: ADMIN_KEY,
      forwardedFor: '10.9.9.9, 198.51.100.7',
      body: { name: 'Proxied' },
      requestId: 'via-proxy-1',
    });
    expect(proxied.status).toBe(201);
    const forged = await toApi(DIRECT, 'POST', '/v1/tenants', {
      key: ADMIN_KEY,
      forwardedFor: '198.51.100.66',
      body: { name: 'Forged' },
      requestId: 'direct-1',
    });
    expect(forged.status).toBe(201);
    const proxiedId = (JSON.parse(proxied.body.toString()) as { id: string }).id;
    const forgedId = (JSON.parse(forged.body.toString()) as { id: string }).id;

    const admin = apiClient(api.url, ADMIN_KEY);
    const audited = async (targetId: string) =>
      ((await admin.get(`/v1/admin/audit-log?targetId=${targetId}`)).body.items as { actorIp: string }[])[0]?.actorIp;
    expect(await audited(proxiedId)).toBe('198.51.100.7');
    expect(await audited(forgedId)).toBe(DIRECT);

    const requestLine = (id: string) =>
      waitUntil(`the request line of ${id}`, () =>
        jsonLines(api.output()).find((line) => line.msg === 'request' && line.requestId === id),
      );
    expect((await requestLine('via-proxy-1')).ip).toBe('198.51.100.7');
    expect((await requestLine('direct-1')).ip).toBe(DIRECT);
  });

  it('limits failed authentication per forwarded client, and a forged header escapes nothing', async () => {
    const status = async (from: string, key: string, forwardedFor?: string) =>
      (await toApi(from, 'GET', '/v1/sites', { key, forwardedFor })).status;
    // Keys shaped like real ones, each client's own from its first character (however the limiter
    // groups failures, by address or by key prefix too, the three clients never share a count).
    const guess = (letter: string) => `smk_${letter.repeat(43)}`;
    // One client behind the proxy spends its 3 invalid keys…
    const guessA = guess('A');
    for (let i = 0; i < 3; i++) expect(await status(PROXY, guessA, '203.0.113.10')).toBe(401);
    expect(await status(PROXY, guessA, '203.0.113.10')).toBe(429);
    // …and the others behind the same proxy are not locked out with it.
    expect(await status(PROXY, guess('B'), '203.0.113.20')).toBe(401);

    // A direct client naming a new address each time is counted as itself.
    const guessC = guess('C');
    for (let i = 0; i < 3; i++) expect(await status(DIRECT, guessC, `203.0.113.${30 + i}`)).toBe(401);
    expect(await status(DIRECT, guessC, '203.0.113.99')).toBe(429);
  });

  it('writes the forwarded client in the public access log, from Fastify and from the in-memory lane', async () => {
    const { api: tenant } = await createTenant(api.url, 'Crawled');
    expect((await tenant.post('/v1/sites', { hostname: HOST, scheme: 'https' })).status).toBe(201);

    const crawl = (from: string, forwardedFor: string, userAgent: string) =>
      rawRequest(publicServer.url, '/robots.txt', {
        host: HOST,
        localAddress: from,
        headers: { 'x-forwarded-for': forwardedFor, 'user-agent': userAgent },
      });
    // The first request loads the site (Fastify's route); later ones are answered from memory.
    for (const [from, forwardedFor, userAgent] of [
      [PROXY, '192.0.2.1', 'crawler-1'],
      [PROXY, '192.0.2.2', 'crawler-2'],
      [DIRECT, '192.0.2.3', 'crawler-3'],
    ] as const)
      expect((await crawl(from, forwardedFor, userAgent)).status).toBe(200);

    const ipOf = async (userAgent: string) =>
      (await publicServer.waitForLine((line) => line.msg === 'request' && line.userAgent === userAgent)).ip;
    expect(await ipOf('crawler-1')).toBe('192.0.2.1');
    expect(await ipOf('crawler-2')).toBe('192.0.2.2');
    expect(await ipOf('crawler-3')).toBe(DIRECT);
  });
});
