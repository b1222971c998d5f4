// Hostname ownership with SITE_VERIFICATION=on, against real servers: the platform's resolver
// asks a real DNS server on 127.0.0.1 (dns2) whose zone the test edits, and the HTTP proof is
// fetched from a real HTTP server. A squatter's pending claim blocks nobody; the owner proves the
// hostname by DNS or by file and the squatter's claim fails; a proof that goes away takes
// verification away after the grace period; only verified sites are served, by Host and by path.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rawRequest, waitUntil } from '@sitemaps/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostnameProofs } from '../apps/worker/src/verification/hostname-proofs';
import { crawl, locsOf } from './support/crawler';
import { startDnsServer, type TestDnsServer } from './support/dns.server';
import { startPlatform, type Platform } from './support/platform';
import { createTenant, type ApiClient } from './support/tenant';

const PLATFORM_HOST = 'sitemaps.platform.example.net';

describe('site verification (SITE_VERIFICATION=on)', () => {
  let platform: Platform;
  let dns: TestDnsServer;
  let files: http.Server;
  /** Host -> body of /.well-known/sitemaps-verification.txt on the test's web server. */
  const published = new Map<string, string>();
  /** Host -> where its verification file redirects to. */
  const redirects = new Map<string, string>();
  /** `host/path` -> body, for any other path. */
  const served = new Map<string, string>();
  /** Webhook deliveries the test's web server received at /hooks. */
  const received: { type: string; data: { siteId: string; hostname: string; reason: string | null } }[] = [];

  const tenant = async (name: string) => (await createTenant(platform.apiUrl, name)).api;
  const siteOf = async (client: ApiClient, id: string) => (await client.get(`/v1/sites/${id}`)).body;
  const untilStatus = (client: ApiClient, id: string, status: string, timeoutMs = 30_000) =>
    waitUntil(
      `site ${id} to be ${status}`,
      async (seen) => {
        const site = seen(await siteOf(client, id));
        return site.verification.status === status ? site : undefined;
      },
      { timeoutMs },
    );
  const publicStatus = async (host: string, path = '/robots.txt') =>
    (await rawRequest(platform.publicUrl, path, { host })).status;

  beforeAll(async () => {
    dns = await startDnsServer();
    files = http.createServer((request, response) => {
      if (request.url === '/hooks') {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          received.push(JSON.parse(body));
          response.writeHead(204).end();
        });
        return;
      }
      const host = (request.headers.host ?? '').replace(/:\d+$/, '');
      const redirect = request.url === '/.well-known/sitemaps-verification.txt' ? redirects.get(host) : undefined;
      if (redirect) return void response.writeHead(302, { location: redirect }).end();
      const body =
        request.url === '/.well-known/sitemaps-verification.txt'
          ? published.get(host)
          : served.get(`${host}${request.url ?? ''}`);
      response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' }).end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    platform = await startPlatform({
      SITE_VERIFICATION: 'on',
      VERIFICATION_DNS_SERVERS: dns.address,
      VERIFICATION_HTTP_PORT: String((files.address() as AddressInfo).port),
      VERIFICATION_ALLOW_PRIVATE_ADDRESSES: 'true',
      VERIFICATION_RETRY_MS: '200',
      VERIFICATION_RECHECK_MS: '400',
      VERIFICATION_GRACE_MS: '1500',
      VERIFICATION_SWEEP_MS: '100',
      PUBLIC_BASE_URL: `http://${PLATFORM_HOST}`,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    });
  });
  afterAll(async () => {
    await platform?.close();
    await dns?.close();
    files?.close();
  });

  it('refuses names that cannot be public, and compares hostnames in one normal form', async () => {
    const client = await tenant('Strict');
    for (const hostname of [
      'demo.localhost',
      'shop.test',
      'printer.local',
      'db.internal',
      '10.1.2.3',
      'localhost',
      'files.corp',
      'nas.lan',
      'router.home',
      'box.localdomain',
      'x.alt',
      '4.3.2.1.in-addr.arpa',
    ]) {
      const res = await client.post('/v1/sites', { hostname });
      expect(res.status, hostname).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'HOSTNAME_NOT_PUBLIC',
        details: [expect.objectContaining({ field: 'hostname' })],
      });
    }
    expect((await client.post('/v1/sites', { hostname: 'shop.example.com:8443' })).body.error.code).toBe(
      'INVALID_HOSTNAME',
    );
    const created = await client.post('/v1/sites', { hostname: 'Bücher.Example.org.' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ hostname: 'xn--bcher-kva.example.org', verification: { status: 'pending' } });
    // The same name written differently is the same name: one site per hostname per tenant.
    const again = await client.post('/v1/sites', { hostname: 'xn--BCHER-kva.example.org' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('HOSTNAME_TAKEN');
  });

  it("squatting: a pending claim blocks nobody; the owner proves the hostname by DNS; the squatter's claim fails", async () => {
    const squatter = await tenant('Squatter');
    const owner = await tenant('Owner');
    const host = 'shop.example.com';

    const claim = await squatter.post('/v1/sites', { hostname: host });
    expect(claim.status).toBe(201);
    expect(claim.body.verification).toMatchObject({
      status: 'pending',
      dnsRecord: { type: 'TXT', name: `_sitemaps-challenge.${host}`, value: claim.body.verification.token },
      fileUrl: `https://${host}/.well-known/sitemaps-verification.txt`,
    });
    // The squatter publishes a sitemap for a host it does not own: built, but served nowhere.
    await squatter.put(`/v1/sites/${claim.body.id}/urls`, [{ loc: `https://${host}/squatted` }]);
    await squatter.waitForBuild(
      claim.body.id,
      (await squatter.post(`/v1/sites/${claim.body.id}/builds`, {})).body.buildId,
    );
    expect(await publicStatus(host, '/sitemap.xml')).toBe(404);
    expect(await publicStatus(PLATFORM_HOST, `/s/${host}/sitemap.xml`)).toBe(404);
    // Its checks fail (no proof anywhere) and say why.
    const failing = await waitUntil(
      'the squatter check to fail',
      async (seen) => {
        const site = seen(await siteOf(squatter, claim.body.id));
        return site.verification.error?.code === 'PROOF_NOT_FOUND' ? site : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(failing.verification.error.message).toContain(`no TXT record at _sitemaps-challenge.${host}`);
    expect(failing.verification.nextCheckAt).not.toBeNull();

    const mine = await owner.post('/v1/sites', { hostname: host });
    expect(mine.status).toBe(201);
    expect(mine.body.verification.token).not.toBe(claim.body.verification.token);
    await owner.put(`/v1/sites/${mine.body.id}/urls`, [{ loc: `https://${host}/mine` }]);
    dns.setTxt(`_sitemaps-challenge.${host}`, ['unrelated=1', mine.body.verification.token]);
    const asked = await owner.post(`/v1/sites/${mine.body.id}/verify`);
    expect(asked.status).toBe(202);
    const verified = await untilStatus(owner, mine.body.id, 'verified');
    expect(verified.verification).toMatchObject({
      error: null,
      verifiedAt: expect.any(String),
      nextCheckAt: expect.any(String),
    });

    const lost = await siteOf(squatter, claim.body.id);
    expect(lost.verification).toMatchObject({
      status: 'taken',
      nextCheckAt: null,
      error: { code: 'HOSTNAME_VERIFIED_ELSEWHERE' },
    });
    // Asking again changes nothing while the owner holds it; a newcomer is refused outright.
    expect((await squatter.post(`/v1/sites/${claim.body.id}/verify`)).status).toBe(202);
    await waitUntil(
      'the squatter re-check to settle',
      async (seen) => seen((await siteOf(squatter, claim.body.id)).verification).nextCheckAt === null,
      { timeoutMs: 30_000 },
    );
    expect((await siteOf(squatter, claim.body.id)).verification.status).toBe('taken');
    const late = await (await tenant('Late')).post('/v1/sites', { hostname: host });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('HOSTNAME_TAKEN');

    // Served once verified, by Host and by path, with the owner's URLs only.
    await owner.waitForBuild(mine.body.id, (await owner.post(`/v1/sites/${mine.body.id}/builds`, {})).body.buildId);
    const byHost = await rawRequest(platform.publicUrl, '/sitemap.xml', { host });
    expect(byHost.status).toBe(200);
    const byPath = await rawRequest(platform.publicUrl, `/s/${host}/sitemap.xml`, { host: PLATFORM_HOST });
    expect(byPath.status).toBe(200);
    const { shards } = await crawl(platform.publicUrl, host);
    expect(shards.flatMap((shard) => locsOf(shard.xml))).toEqual([`https://${host}/mine`]);
  });

  it('proves a hostname by the HTTP file, through GraphQL', async () => {
    const owner = await tenant('Blogger');
    const host = 'blog.example.org';
    const created = await owner.post('/v1/sites', { hostname: host, scheme: 'http' });
    dns.setA(host, '127.0.0.1');
    published.set(host, `${created.body.verification.token}\n`);
    const key = (await owner.post('/v1/api-keys', { name: 'gql', scopes: ['write'] })).body.apiKey;
    const gql = await fetch(`${platform.apiUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({
        query:
          'mutation($id: ID!) { verifySite(input: { id: $id }) { site { id verification { status token dnsRecord { name } fileUrl } } } }',
        variables: { id: created.body.id },
      }),
    });
    const answer = (await gql.json()) as {
      data: { verifySite: { site: { verification: { token: string; fileUrl: string } } } };
    };
    expect(answer.data.verifySite.site.verification).toMatchObject({
      token: created.body.verification.token,
      fileUrl: `http://${host}/.well-known/sitemaps-verification.txt`,
    });
    await untilStatus(owner, created.body.id, 'verified');
    expect(await publicStatus(host)).toBe(200);
  });

  it('reads the file proof from the host itself, and only a file that holds exactly the token', async () => {
    const owner = await tenant('Careful');
    const port = (files.address() as AddressInfo).port;
    const errorOf = (id: string, part: string) =>
      waitUntil(`the check of ${id} to fail with "${part}"`, async (seen) => {
        const site = seen(await siteOf(owner, id));
        return site.verification.error?.message?.includes(part) ? site : undefined;
      });

    // A redirect to another host proves nothing, whatever that host serves.
    const moved = (await owner.post('/v1/sites', { hostname: 'moved.example.org', scheme: 'http' })).body;
    dns.setA('moved.example.org', '127.0.0.1');
    dns.setA('attacker.example.net', '127.0.0.1');
    served.set('attacker.example.net/token.txt', moved.verification.token);
    redirects.set('moved.example.org', `http://attacker.example.net:${port}/token.txt`);
    const elsewhere = await errorOf(moved.id, 'redirects to another host');
    expect(elsewhere.verification).toMatchObject({ status: 'pending', error: { code: 'PROOF_NOT_FOUND' } });

    // A page that merely contains the token (a soft 404 echoing what was asked) proves nothing either.
    const echoed = (await owner.post('/v1/sites', { hostname: 'echo.example.org', scheme: 'http' })).body;
    dns.setA('echo.example.org', '127.0.0.1');
    published.set(
      'echo.example.org',
      `<html><body><h1>Not found</h1><p>No page at /${echoed.verification.token} on this site.</p></body></html>`,
    );
    const soft = await errorOf(echoed.id, "does not hold exactly the site's token");
    expect(soft.verification.status).toBe('pending');
    // Nor does a page that starts with it: the token file is the token.
    const padded = (await owner.post('/v1/sites', { hostname: 'padded.example.org', scheme: 'http' })).body;
    dns.setA('padded.example.org', '127.0.0.1');
    published.set('padded.example.org', `${padded.verification.token}${' '.repeat(2_000)}<html>a page</html>`);
    expect((await errorOf(padded.id, 'larger than a token file')).verification.status).toBe('pending');

    // The same host's redirect is followed, and the token alone (a trailing newline aside) proves it.
    const same = (await owner.post('/v1/sites', { hostname: 'same.example.org', scheme: 'http' })).body;
    dns.setA('same.example.org', '127.0.0.1');
    served.set('same.example.org/proof.txt', `  ${same.verification.token}\r\n`);
    redirects.set('same.example.org', `http://same.example.org:${port}/proof.txt`);
    expect((await untilStatus(owner, same.id, 'verified')).verification.error).toBeNull();
  });

  it('never tells a tenant what a name resolves to: the addresses stay in the server log', async () => {
    // Through a split-horizon resolver, "resolves to 10.20.30.40" would map the platform's network.
    dns.setA('intranet.example.com', '10.20.30.40');
    const proofs = new HostnameProofs({ ...platform.config.verification, allowPrivateAddresses: false });
    const outcome = await proofs.check({ hostname: 'intranet.example.com', scheme: 'https', token: 'x' });
    expect(outcome).toMatchObject({ proven: false, code: 'PROOF_NOT_FOUND' });
    expect(outcome.proven ? '' : outcome.message).toContain('private, loopback or link-local');
    expect(outcome.proven ? '' : outcome.message).not.toContain('10.20.30.40');
  });

  it('checks at most once per VERIFICATION_REQUEST_INTERVAL_MS however often a tenant asks, and says when', async () => {
    // Each check is DNS queries and fetches at the claimed host, which need not be the tenant's.
    const owner = await tenant('Impatient');
    const created = (await owner.post('/v1/sites', { hostname: 'impatient.example.com' })).body;
    const asked: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await owner.post(`/v1/sites/${created.id}/verify`);
      expect(res.status).toBe(202);
      asked.push(Date.parse(res.body.verification.nextCheckAt));
    }
    const [first, ...later] = asked;
    // The first ask is checked at once; the other nine wait for the interval's end (30 s by default).
    for (const next of later) expect(next - first!).toBeGreaterThan(20_000);
  });

  it('takes verification away once the proof has been gone longer than the grace period, and serves the site no more', async () => {
    const owner = await tenant('Forgetful');
    const host = 'fading.example.com';
    const hooksUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/hooks`;
    expect(
      (await owner.post('/v1/webhooks', { url: hooksUrl, eventTypes: ['site.verified', 'site.verification_lost'] }))
        .status,
    ).toBe(201);
    const created = await owner.post('/v1/sites', { hostname: host });
    dns.setTxt(`_sitemaps-challenge.${host}`, [created.body.verification.token]);
    const verified = await untilStatus(owner, created.body.id, 'verified');
    expect(await publicStatus(host)).toBe(200);

    dns.remove(`_sitemaps-challenge.${host}`);
    // Within the grace period: still verified and served, the failure on record.
    const failing = await waitUntil('a failed re-check within the grace period', async (seen) => {
      const site = seen(await siteOf(owner, created.body.id));
      return site.verification.status === 'verified' && site.verification.error?.code === 'PROOF_NOT_FOUND'
        ? site
        : undefined;
    });
    expect(failing.verification.verifiedAt).toBe(verified.verification.verifiedAt);
    const lost = await untilStatus(owner, created.body.id, 'pending');
    expect(lost.verification).toMatchObject({ verifiedAt: null, error: { code: 'VERIFICATION_LOST' } });
    expect(await publicStatus(host)).toBe(404);
    // The owner heard of both changes at its webhook endpoint.
    const events = await waitUntil(
      'site.verified and site.verification_lost at the webhook endpoint',
      (seen) => {
        const mine = seen(received.filter((event) => event.data.siteId === created.body.id));
        return mine.length >= 2 ? mine : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(events.map((event) => event.type)).toEqual(['site.verified', 'site.verification_lost']);
    expect(events[1]!.data).toMatchObject({ hostname: host, reason: expect.stringContaining('grace period') });

    // The record back: verified again by the scheduled checks alone.
    dns.setTxt(`_sitemaps-challenge.${host}`, [created.body.verification.token]);
    await untilStatus(owner, created.body.id, 'verified');
    expect(await publicStatus(host)).toBe(200);
  });
});
