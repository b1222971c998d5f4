// The export's read path against real Postgres: batches from a server-side cursor, one snapshot,
// the connection back in the pool when the consumer stops; and the NDJSON stream pulling batches
// only as fast as its reader takes them, so memory stays a few batches whatever the site's size.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool } from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { UrlRepository, type ExportedUrlRow } from '@sitemaps/data';
import { insertSite, type SiteRow, useTestPool } from '@sitemaps/testing';
import { UrlIngestService } from '../url-ingest.service';
import { ndjsonExport } from './url-export';

const URLS = 5_000;

describe('URL export (real Postgres)', () => {
  const fixture = useTestPool();
  let pool: Pool;
  let site: SiteRow;
  let urls: UrlRepository;
  const loc = (i: number) => `https://${site.hostname}/p/${i}`;

  beforeAll(async () => {
    pool = fixture.pool;
    site = await insertSite(pool);
    urls = new UrlRepository(pool);
    const ingest = new UrlIngestService(pool, async () => undefined);
    for (let start = 0; start < URLS; start += 1_000) {
      const entries = Array.from({ length: 1_000 }, (_, k) => ({ loc: loc(start + k), lastmod: '2026-02-03' }));
      expect((await ingest.upsert(site, entries)).errors).toEqual([]);
    }
  }, 120_000);

  const openTransactions = async () =>
    (
      await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
      )
    ).rows[0]?.n;

  it('reads the live URLs in id order, in batches of at most the fetch size, from one snapshot', async () => {
    const sizes: number[] = [];
    const locs: string[] = [];
    let added = false;
    for await (const rows of urls.exportBatches(site.id, {}, 700)) {
      sizes.push(rows.length);
      locs.push(...rows.map((row) => row.loc));
      if (!added) {
        // Written after the export began: not in it (its snapshot is the moment it began).
        await new UrlIngestService(pool, async () => undefined).upsert(site, [{ loc: loc(URLS) }]);
        added = true;
      }
    }
    expect(sizes).toEqual([...Array.from({ length: 7 }, () => 700), 100]);
    expect(locs).toEqual(Array.from({ length: URLS }, (_, i) => loc(i)));
  });

  it('gives its connection back, transaction closed, when the consumer stops early', async () => {
    const idleBefore = pool.idleCount;
    for await (const rows of urls.exportBatches(site.id, {}, 100)) {
      expect(rows).toHaveLength(100);
      expect(await openTransactions()).toBe(1);
      break;
    }
    expect(await openTransactions()).toBe(0);
    expect(pool.idleCount).toBeGreaterThanOrEqual(idleBefore);
  });

  it('pulls batches only as its reader takes the lines', async () => {
    let pulled = 0;
    const counted = async function* (): AsyncGenerator<ExportedUrlRow[]> {
      for await (const rows of urls.exportBatches(site.id, {}, 100)) {
        pulled++;
        yield rows;
      }
    };
    let release: (() => void) | undefined;
    let received = 0;
    // A reader that takes one chunk, then stalls until the test lets it go on.
    const slow = new Writable({
      highWaterMark: 1,
      write(_chunk: Buffer, _encoding, done) {
        received++;
        if (received === 1) release = done;
        else done();
      },
    });
    const finished = pipeline(Readable.from(ndjsonExport(counted()), { highWaterMark: 1 }), slow);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Stalled: at most the chunk in the reader, one per buffer on the way, one being made.
    expect(pulled).toBeLessThanOrEqual(4);
    expect(pulled).toBeLessThan(URLS / 100);
    release?.();
    await finished;
    expect(pulled).toBe(Math.ceil((URLS + 1) / 100));
  });
});
