import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { Pool } from 'pg';
import { createPgPool } from '@sitemaps/data';
import { insertSite, insertTenant, startTcpProxy, type SiteRow, useTestPool } from '@sitemaps/testing';
import { UrlIngestService } from '../url-ingest.service';
import type { ImportItem } from './import.types';
import { drainInto } from './upload.importer';
import { UrlImportService, type ImportSession } from './url-import.service';

describe('UrlImportService (real Postgres)', () => {
  let pool: Pool;
  let site: SiteRow;
  let changes: string[];
  let imports: UrlImportService;
  let ingest: UrlIngestService;
  const loc = (path: string) => `https://${site.hostname}${path}`;
  const line = (n: number, entry: unknown): ImportItem => ({ line: n, entry });
  async function* items(list: ImportItem[]) {
    yield* list;
  }
  const importRow = async (id: string) => (await pool.query('SELECT * FROM imports WHERE id = $1', [id])).rows[0];
  const live = async () =>
    (
      await pool.query<{ loc: string }>('SELECT loc FROM urls WHERE site_id = $1 AND deleted_at IS NULL ORDER BY loc', [
        site.id,
      ])
    ).rows.map((row) => row.loc);

  const fixture = useTestPool();
  beforeAll(() => {
    pool = fixture.pool;
  });
  afterEach(() => {
    // Every session gave its connection back.
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });
  beforeEach(async () => {
    site = await insertSite(pool);
    changes = [];
    ingest = new UrlIngestService(pool, async () => undefined);
    // Tiny batches: every test crosses several of them.
    imports = new UrlImportService(pool, ingest.writer, async (siteId) => void changes.push(siteId), {
      batchSize: 3,
      flushEveryMs: 60_000,
      maxStoredRejections: 4,
    });
  });

  it('stores the valid lines batch by batch and records each rejection with its line', async () => {
    const session = await imports.start(site, { source: 'upload', format: 'ndjson', mode: 'upsert' });
    const result = await drainInto(
      session,
      items([
        line(1, { loc: loc('/a') }),
        { line: 2, issue: { code: 'INVALID_JSON', field: '', message: 'not JSON' } },
        { line: 3, blank: true },
        line(4, { loc: 'https://elsewhere.example.org/x' }),
        line(5, { loc: loc('/b'), lastmod: '2026-02-30' }),
        line(6, { loc: loc('/c'), hreflang: 'en', alternates: [{ hreflang: 'de', href: loc('/c-de') }] }),
        line(7, { loc: loc('/a'), priority: 0.4 }),
        line(8, { loc: loc('/c-de'), hreflang: 'de', alternates: [{ hreflang: 'en', href: loc('/c') }] }),
      ]),
    );
    expect(result).toMatchObject({ status: 'completed', linesRead: 8, stored: 4, rejected: 3 });
    expect(await live()).toEqual([loc('/a'), loc('/c'), loc('/c-de')]);
    const rejections = await pool.query(
      'SELECT line, code, field FROM import_rejections WHERE import_id = $1 ORDER BY id',
      [session.id],
    );
    expect(rejections.rows).toEqual([
      { line: 2, code: 'INVALID_JSON', field: '' },
      { line: 4, code: 'URL_HOST_MISMATCH', field: 'loc' },
      { line: 5, code: 'INVALID_LASTMOD', field: 'lastmod' },
    ]);
    expect(await importRow(session.id)).toMatchObject({
      status: 'completed',
      lines_read: 8,
      stored: 4,
      rejected: 3,
      error: null,
    });
    // The later line wins; both members of the cluster list each other.
    const fragments = await pool.query<{ loc: string; fragment: string }>(
      'SELECT loc, fragment FROM urls WHERE site_id = $1',
      [site.id],
    );
    const byLoc = Object.fromEntries(fragments.rows.map((row) => [row.loc, row.fragment]));
    expect(byLoc[loc('/a')]).toContain('<priority>0.4</priority>');
    expect(byLoc[loc('/c')]).toContain(`hreflang="de" href="${loc('/c-de')}"`);
    expect(byLoc[loc('/c-de')]).toContain(`hreflang="en" href="${loc('/c')}"`);
    expect(changes).toEqual([site.id]);
  });

  it('stores at most maxStoredRejections rejections but counts them all', async () => {
    const session = await imports.start(site, { source: 'upload', format: 'ndjson', mode: 'upsert' });
    const bad = Array.from({ length: 7 }, (_, i) => line(i + 1, { loc: `https://elsewhere.example.org/${i}` }));
    expect(await drainInto(session, items(bad))).toMatchObject({ rejected: 7, stored: 0 });
    expect(
      (await pool.query('SELECT count(*)::int AS n FROM import_rejections WHERE import_id = $1', [session.id])).rows[0]
        .n,
    ).toBe(4);
  });

  it('replace deletes what the import did not list only when it completes, and keeps rejected lines', async () => {
    await ingest.upsert(
      site,
      ['/keep', '/bad-date', '/gone-1', '/gone-2'].map((p) => ({ loc: loc(p) })),
    );
    const session = await imports.start(site, { source: 'upload', format: 'ndjson', mode: 'replace' });
    for (const item of [
      line(1, { loc: loc('/keep') }),
      line(2, { loc: loc('/bad-date'), lastmod: 'yesterday' }),
      line(3, { loc: loc('/new-1') }),
      line(4, { loc: loc('/new-2') }),
    ]) {
      await session.push(item);
    }
    // Batches commit as they go: new URLs appear, nothing is deleted yet.
    await expect.poll(live).toContain(loc('/new-1'));
    expect(await live()).toEqual(
      [loc('/bad-date'), loc('/gone-1'), loc('/gone-2'), loc('/keep'), loc('/new-1')].sort(),
    );
    const result = await session.complete();
    expect(result).toMatchObject({ status: 'completed', stored: 3, rejected: 1, deleted: 2 });
    expect(await live()).toEqual([loc('/bad-date'), loc('/keep'), loc('/new-1'), loc('/new-2')]);
    const shards = await pool.query('SELECT sum(url_count)::int AS n FROM shards WHERE site_id = $1', [site.id]);
    expect(shards.rows[0].n).toBe(4);
  });

  it('an import that fails deletes nothing and keeps what it committed', async () => {
    await ingest.upsert(site, [{ loc: loc('/old') }]);
    const session = await imports.start(site, { source: 'upload', format: 'ndjson', mode: 'replace' });
    await expect(
      drainInto(
        session,
        (async function* () {
          yield line(1, { loc: loc('/n1') });
          yield line(2, { loc: loc('/n2') });
          yield line(3, { loc: loc('/n3') });
          yield line(4, { loc: loc('/n4') });
          throw new Error('client went away');
        })(),
      ),
    ).rejects.toThrow('client went away');
    expect(await importRow(session.id)).toMatchObject({ status: 'failed', error: 'client went away' });
    expect(await live()).toEqual([loc('/n1'), loc('/n2'), loc('/n3'), loc('/old')]);
  });

  it('fails an import whose session died, and then lets the site import again', async () => {
    const session = await imports.start(site, { source: 'upload', format: 'ndjson', mode: 'replace' });
    await expect(imports.start(site, { source: 'upload', format: 'ndjson', mode: 'upsert' })).rejects.toMatchObject({
      code: 'IMPORT_RUNNING',
    });
    expect(await imports.sweep(site.id)).toBe(0);

    await pool.query(
      `SELECT pg_terminate_backend(l.pid) FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1, 0)`,
      [`import:${session.id}`],
    );
    await expect.poll(() => imports.sweep(site.id), { timeout: 10_000 }).toBe(1);
    expect(await importRow(session.id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/interrupted/),
    });
    await expect(session.complete()).rejects.toThrow();
    await session.fail(new Error('connection lost'));
    expect((await importRow(session.id)).error).toMatch(/interrupted/);

    const next: ImportSession = await imports.start(site, { source: 'upload', format: 'ndjson', mode: 'upsert' });
    expect(await drainInto(next, items([line(1, { loc: loc('/x') })]))).toMatchObject({
      status: 'completed',
      stored: 1,
    });
  });

  it('gives up on a session that made no progress for long, and that session then changes nothing', async () => {
    await ingest.upsert(site, [{ loc: loc('/old') }]);
    const session = await imports.start(site, { source: 'upload', format: 'ndjson', mode: 'replace' });
    await session.push(line(1, { loc: loc('/new') }));
    await pool.query(`UPDATE imports SET heartbeat_at = now() - interval '2 hours' WHERE id = $1`, [session.id]);
    expect(await imports.sweep(site.id)).toBe(1);
    expect(await importRow(session.id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/no progress/),
    });
    await expect(session.complete()).rejects.toThrow(/no longer running/);
    await session.fail(new Error('abandoned'));
    expect(await live()).toEqual([loc('/old')]);
    expect((await importRow(session.id)).error).toMatch(/no progress/);
  });

  it('rejects lines past the tenant URL quota', async () => {
    const tenant = await insertTenant(pool, { maxUrls: 3 });
    site = await insertSite(pool, { tenantId: tenant.id });
    await ingest.upsert(site, [{ loc: loc('/1') }]);
    const session = await imports.start(site, { source: 'upload', format: 'ndjson', mode: 'upsert' });
    const result = await drainInto(
      session,
      items(['/1', '/2', '/3', '/4', '/5'].map((p, i) => line(i + 1, { loc: loc(p) }))),
    );
    expect(result).toMatchObject({ stored: 3, rejected: 2 });
    expect(await live()).toEqual([loc('/1'), loc('/2'), loc('/3')]);
    const rejections = await pool.query('SELECT line, code FROM import_rejections WHERE import_id = $1 ORDER BY line', [
      session.id,
    ]);
    expect(rejections.rows).toEqual([
      { line: 4, code: 'QUOTA_URLS' },
      { line: 5, code: 'QUOTA_URLS' },
    ]);
  });

  // Postgres unreachable mid-import (stopped, failing over): the session's connection is cut and
  // the pool cannot reach the server to mark the import failed either. The session still gives its
  // connection back; before, it kept it for good, and `pool.end()` (the API's shutdown) never returned.
  it('gives its connection back when it fails with Postgres unreachable', async () => {
    const serverPort = Number(new URL(fixture.db.url).port || 5432);
    const proxy = await startTcpProxy(serverPort);
    const viaProxy = new URL(fixture.db.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const cut = createPgPool(viaProxy.toString(), { max: 2 });
    try {
      const cutImports = new UrlImportService(cut, ingest.writer, async () => undefined, {
        batchSize: 3,
        flushEveryMs: 60_000,
        maxStoredRejections: 4,
      });
      const session = await cutImports.start(site, { source: 'upload', format: 'ndjson', mode: 'upsert' });
      async function* thenUnreachable() {
        yield* ['/a', '/b', '/c'].map((p, i) => line(i + 1, { loc: loc(p) }));
        // Open connections cut, new ones refused: as while the server is down.
        proxy.retarget(await closedPort());
        yield* ['/d', '/e', '/f'].map((p, i) => line(i + 4, { loc: loc(p) }));
      }
      await expect(drainInto(session, thenUnreachable())).rejects.toThrow();
      expect(cut.totalCount - cut.idleCount).toBe(0);
    } finally {
      // `end()` waits for every connection to come back: not for one that never will (the failure above).
      if (cut.totalCount === cut.idleCount) await cut.end();
      await proxy.stop();
    }
    // Its import was left running without its lock (the server ended the cut session): the sweep fails it.
    await expect.poll(() => imports.sweep(site.id), { timeout: 10_000 }).toBe(1);
  });
});

/** A port nothing listens on: one the system gave, closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
