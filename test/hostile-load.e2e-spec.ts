// One platform under every input that used to take it down or stall it (issue 13), all at once:
// unauthenticated bodies past the heap, a 1,000-member hreflang cluster, GraphQL aliases and
// batches, a gzip bomb and ten uploads that trickle. Meanwhile and afterwards another tenant
// writes, builds and is crawled as usual, and nothing it stored is lost.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '@sitemaps/testing';
import { sendRaw, spawnApi, type ApiProcess } from './support/api-process';
import { crawl, locsOf, validateSitemaps } from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { createSite, createTenant, createTenantWithSite, type ApiClient } from './support/tenant';

const EMPTY_OBJECTS = `[${'{},'.repeat(4 * 1024 * 1024)}{}]`;
const VICTIM = 'victim.example.com';
const ATTACKER = 'attacker.example.com';

/** An NDJSON upload that sends a line every `everyMs` until finished. */
function trickle(baseUrl: string, key: string, siteId: string, everyMs: number) {
  const request = http.request(new URL(`/v1/sites/${siteId}/urls/import`, baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' },
  });
  const response = new Promise<number>((resolve, reject) => {
    request.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    request.on('error', reject);
  });
  let line = 0;
  const send = () => request.write(`${JSON.stringify({ loc: `https://${ATTACKER}/trickle/${siteId}/${line++}` })}\n`);
  send();
  const timer = setInterval(send, everyMs);
  return {
    response,
    finish() {
      clearInterval(timer);
      request.end();
    },
  };
}

describe('one platform under hostile load', () => {
  let platform: Platform;
  let api: ApiProcess;
  let victim: ApiClient;
  let attacker: ApiClient;
  let attackerKey: string;
  let victimKey: string;
  let bomberKey: string;
  let victimSite: string;
  let bomberSite: string;
  const attackerSites: string[] = [];

  beforeAll(async () => {
    platform = await startPlatform({ BUILD_QUIET_MS: '60000', API_BODY_IDLE_TIMEOUT_MS: '60000' });
    // Hostile requests go to the API as production runs it: a process of its own, production heap.
    api = await spawnApi(platform.env);
    ({ apiKey: victimKey, api: victim } = await createTenant(api.url, 'Victim'));
    ({ apiKey: bomberKey, siteId: bomberSite } = await createTenantWithSite(api.url, 'Bomber', {
      hostname: `bomb.${ATTACKER}`,
    }));
    ({ apiKey: attackerKey, api: attacker } = await createTenant(api.url, 'Attacker'));
    victimSite = await createSite(victim, { hostname: VICTIM });
    for (let i = 0; i < 10; i++) attackerSites.push(await createSite(attacker, { hostname: `t${i}.${ATTACKER}` }));
    attackerSites.unshift(await createSite(attacker, { hostname: ATTACKER }));
    const first = Array.from({ length: 2_000 }, (_, i) => ({ loc: `https://${VICTIM}/before/${i}` }));
    expect((await victim.put(`/v1/sites/${victimSite}/urls`, first)).body).toMatchObject({
      upserted: 2_000,
      errors: [],
    });
    const build = await victim.post(`/v1/sites/${victimSite}/builds`, {});
    expect(await victim.waitForBuild(victimSite, build.body.buildId)).toMatchObject({
      status: 'published',
      urlCount: 2_000,
    });
  }, 180_000);
  afterAll(async () => {
    await api?.stop();
    await platform?.close();
  });

  it('refuses every hostile input while the other tenant writes, uploads, builds and is crawled, losing nothing', async () => {
    // Ten uploads that would hold import connections for as long as the rest of the test runs:
    // the tenant's share runs, the rest are refused at once.
    const trickles = attackerSites.slice(1).map((siteId) => trickle(api.url, attackerKey, siteId, 250));
    try {
      const answered: number[] = [];
      for (const upload of trickles)
        void upload.response.then(
          (status) => answered.push(status),
          () => undefined,
        );
      expect(
        await waitUntil('eight uploads to be refused', (seen) => (seen(answered.length) >= 8 ? answered : undefined)),
      ).toEqual(Array(8).fill(429));
      await waitUntil('two trickling uploads to be running', async (seen) => {
        const lists = await Promise.all(attackerSites.slice(1).map((id) => attacker.get(`/v1/sites/${id}/imports`)));
        return seen(lists.filter((list) => list.body.items[0]?.status === 'running').length) === 2;
      });
      const pages = Array.from({ length: 1_000 }, (_, i) => `https://${ATTACKER}/cluster/${i}`);
      const unauthenticated = Promise.all(
        [1, 2].flatMap(() => [
          sendRaw(
            `${api.url}/v1/sites/${randomUUID()}/urls`,
            'PUT',
            { 'content-type': 'application/json' },
            EMPTY_OBJECTS,
          ),
          sendRaw(`${api.url}/graphql`, 'POST', { 'content-type': 'application/json' }, EMPTY_OBJECTS),
        ]),
      );
      const cluster = attacker.put(`/v1/sites/${attackerSites[0]}/urls`, [
        { loc: pages[0], alternates: pages.map((href, k) => ({ hreflang: `x${k}`, href })) },
      ]);
      // As many aliases as fit the document length limit.
      const aliases = attacker.post('/graphql', {
        query: `{ ${Array.from({ length: 1_500 }, (_, i) => `a${i}: site(id: "${attackerSites[0]}") { id }`).join(' ')} }`,
      });
      const batch = attacker.call('POST', '/graphql', undefined, {
        raw: JSON.stringify(Array.from({ length: 100 }, () => ({ query: '{ sites { nodes { id } } }' }))),
      });
      const bomb = fetch(`${api.url}/v1/sites/${bomberSite}/urls/import`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bomberKey}`,
          'content-type': 'application/x-ndjson',
          'content-encoding': 'gzip',
        },
        body: gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x0a)),
      }).then(async (res) => ({ status: res.status, body: await res.json() }));

      // The victim's work while the attacks are in flight and the uploads hold their connections.
      const during = Array.from({ length: 1_000 }, (_, i) => ({ loc: `https://${VICTIM}/during/${i}` }));
      const started = performance.now();
      const put = await victim.put(`/v1/sites/${victimSite}/urls`, during);
      const putMs = performance.now() - started;
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ upserted: 1_000, errors: [] });
      const uploaded = Array.from({ length: 1_000 }, (_, i) =>
        JSON.stringify({ loc: `https://${VICTIM}/uploaded/${i}` }),
      ).join('\n');
      const upload = await fetch(`${api.url}/v1/sites/${victimSite}/urls/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${victimKey}`, 'content-type': 'application/x-ndjson' },
        body: uploaded,
      });
      expect(await upload.json()).toMatchObject({ status: 'completed', stored: 1_000, rejected: 0 });
      expect((await crawl(platform.publicUrl, VICTIM)).index.status).toBe(200);

      for (const res of await unauthenticated) {
        expect(res.status).toBe(401);
        expect(res.headers.connection).toBe('close');
      }
      expect((await cluster).status).toBe(200);
      expect((await cluster).body.errors).toEqual([expect.objectContaining({ index: 0, code: 'CLUSTER_TOO_LARGE' })]);
      expect((await aliases).status).toBe(400);
      expect((await aliases).body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
      // Batched operations would multiply what one request costs: refused whole.
      expect((await batch).status).toBe(400);
      expect(await bomb).toMatchObject({ status: 413, body: { error: { code: 'COMPRESSION_RATIO_TOO_HIGH' } } });
      // Not a timing assertion (the machines are noisy): printed so a slow run shows its cost.
      console.info(`victim PUT of 1,000 URLs under attack: ${putMs.toFixed(0)} ms`);
    } finally {
      for (const upload of trickles) upload.finish();
    }
    expect((await Promise.all(trickles.map((upload) => upload.response))).sort()).toEqual([
      ...Array(2).fill(201),
      ...Array(8).fill(429),
    ]);

    // The production API survived all of it, and the victim's site is whole.
    expect(api.child.exitCode).toBeNull();
    expect((await fetch(`${api.url}/health`)).status).toBe(200);
    const build = await victim.post(`/v1/sites/${victimSite}/builds`, {});
    expect(await victim.waitForBuild(victimSite, build.body.buildId)).toMatchObject({
      status: 'published',
      urlCount: 4_000,
    });
    const after = await crawl(platform.publicUrl, VICTIM);
    const expected = ['before', 'during', 'uploaded'].flatMap((part) =>
      Array.from({ length: part === 'before' ? 2_000 : 1_000 }, (_, i) => `https://${VICTIM}/${part}/${i}`),
    );
    expect(new Set(after.shards.flatMap((shard) => locsOf(shard.xml)))).toEqual(new Set(expected));
    const validation = await validateSitemaps(
      [after.index, ...after.shards].map((file) => ({ name: file.path, data: file.body })),
    );
    expect(validation.output).toBe('');
  }, 180_000);
});
