// One tenant's slow clients cannot stall the others (issue 13.3): uploads hold connections of
// their own pool, never the ones every other request needs, and a body that stops arriving is
// cut off after API_BODY_IDLE_TIMEOUT_MS, its import failed with what was read kept; a body the
// server is slow to read is not the client's fault and is kept.
import http from 'node:http';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '@sitemaps/testing';
import { startPlatform, type Platform } from './support/platform';
import { createSite, createTenant } from './support/tenant';

interface SlowUpload {
  response: Promise<{ status: number; body: any }>;
  /** Stops the trickle and ends the body. */
  finish(): void;
  /** Stops sending without ending the body. */
  stall(): void;
}

/** Whose upload into which site (its host makes the lines' locs), and how slowly its lines come. */
interface SlowUploadOptions {
  key: string;
  site: { id: string; host: string };
  everyMs: number;
}

/** An NDJSON upload that sends one line every `everyMs`, as a slow client would. */
function slowUpload(baseUrl: string, { key, site, everyMs }: SlowUploadOptions): SlowUpload {
  const { id: siteId, host } = site;
  const request = http.request(new URL(`/v1/sites/${siteId}/urls/import`, baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson', 'transfer-encoding': 'chunked' },
  });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    request.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    request.on('error', reject);
  });
  let line = 0;
  const timer = setInterval(
    () => request.write(`${JSON.stringify({ loc: `https://${host}/slow/${line++}` })}\n`),
    everyMs,
  );
  request.write(`${JSON.stringify({ loc: `https://${host}/slow/first` })}\n`);
  return {
    response,
    finish: () => {
      clearInterval(timer);
      request.end();
    },
    stall: () => clearInterval(timer),
  };
}

describe('slow clients', () => {
  let platform: Platform;

  beforeAll(async () => {
    // Ten uploads as ten tenants could hold them: the per-tenant share (hostile-load e2e) is
    // lifted so that one tenant can fill the import pool here.
    platform = await startPlatform(
      { API_BODY_IDLE_TIMEOUT_MS: '2000', IMPORT_UPLOADS_PER_TENANT: '10' },
      { worker: false },
    );
  });
  afterAll(() => platform?.close());

  async function tenantWithSites(name: string, count: number) {
    const { apiKey: key, api: client } = await createTenant(platform.apiUrl, name);
    const sites: { id: string; host: string }[] = [];
    for (let i = 0; i < count; i++) {
      const host = `${name.toLowerCase()}-${i}.example.com`;
      sites.push({ id: await createSite(client, { hostname: host }), host });
    }
    return { key, client, sites };
  }

  it("leaves another tenant's writes going while ten uploads trickle in", async () => {
    const attacker = await tenantWithSites('Trickle', 10);
    const victim = await tenantWithSites('Victim', 1);
    const uploads = attacker.sites.map((site) =>
      slowUpload(platform.apiUrl, { key: attacker.key, site, everyMs: 500 }),
    );
    try {
      // Let every upload open its import (those beyond the import pool wait for a connection of it).
      await waitUntil('the uploads to be running', async (seen) => {
        const running = (
          await Promise.all(
            attacker.sites.map(
              async (site) => (await attacker.client.get(`/v1/sites/${site.id}/imports`)).body.items.length,
            ),
          )
        ).filter(Boolean).length;
        return seen(running) >= 6;
      });
      const entries = Array.from({ length: 1_000 }, (_, i) => ({ loc: `https://${victim.sites[0]!.host}/p/${i}` }));
      const put = await victim.client.put(`/v1/sites/${victim.sites[0]!.id}/urls`, entries);
      expect(put.status).toBe(200);
      expect(put.body.upserted).toBe(1_000);
      expect((await victim.client.get(`/v1/sites/${victim.sites[0]!.id}/urls?limit=1`)).status).toBe(200);
    } finally {
      for (const upload of uploads) upload.finish();
    }
    const results = await Promise.all(uploads.map((upload) => upload.response));
    for (const result of results)
      expect(result).toMatchObject({ status: 201, body: { status: 'completed', rejected: 0 } });
  });

  it('cuts off a body that stops arriving, failing its import and keeping what was read', async () => {
    const { key, client, sites } = await tenantWithSites('Stalled', 1);
    const upload = slowUpload(platform.apiUrl, { key, site: sites[0]!, everyMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    upload.stall();
    await expect(upload.response).rejects.toThrow(/socket hang up|ECONNRESET/);
    const imported = await waitUntil('the stalled import to fail', async (seen) => {
      const [item] = (await client.get(`/v1/sites/${sites[0]!.id}/imports`)).body.items;
      return seen(item?.status) === 'failed' ? item : undefined;
    });
    expect(imported.error).toMatch(/upload stopped before its end/);
    expect(imported.stored).toBeGreaterThan(0);
    const stored = await client.get(`/v1/sites/${sites[0]!.id}/urls?limit=1000`);
    expect(stored.body.items.length).toBe(imported.stored);
  });
  it('keeps an upload that the server is slow to read, however long past the idle timeout', async () => {
    const { client, sites } = await tenantWithSites('Patient', 1);
    const site = sites[0]!;
    // Another transaction holds the site's URL write lock for twice the idle timeout: the import
    // stops reading while the client has sent everything and waits.
    const holder = new Client({ connectionString: platform.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT pg_advisory_xact_lock(hashtextextended('site-urls:' || $1, 0))", [site.id]);
      const body = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ loc: `https://${site.host}/p/${i}` }));
      const upload = client.call('POST', `/v1/sites/${site.id}/urls/import`, undefined, {
        raw: `${body.join('\n')}\n`,
        headers: { 'content-type': 'application/x-ndjson' },
      });
      await waitUntil('the import to wait on the lock', async (seen) => {
        const { rows } = await holder.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
        );
        return seen(rows[0]!.n) > 0;
      });
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      await holder.query('COMMIT');
      const res = await upload;
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'completed', stored: 20_000, rejected: 0 });
    } finally {
      await holder.end();
    }
  });
});
