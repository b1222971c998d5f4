import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { createPrismaClient, UrlRepository, type PrismaClient } from '@sitemaps/data';
import { UrlIngestService } from '@sitemaps/ingest';
import { createBlobStore, type BlobStore } from '@sitemaps/storage';
import { insertSite, useTestPool } from '@sitemaps/testing';
import { renderTextSitemapFiles } from './text-sitemap.renderer';

describe('renderTextSitemapFiles (real Postgres)', () => {
  let pool: Pool;
  let prisma: PrismaClient;
  let store: BlobStore;

  const fixture = useTestPool();
  beforeAll(() => {
    pool = fixture.pool;
    prisma = createPrismaClient(fixture.db.url);
    store = createBlobStore({ driver: 'postgres', dir: '', graceMs: 60_000 }, prisma, pool);
  });
  afterAll(() => prisma.$disconnect());

  it('splits the locs in shard order at the URL and byte limits, reading page by page', async () => {
    const site = await insertSite(pool);
    const ingest = new UrlIngestService(pool, async () => undefined, { maxUrls: 4, maxBytes: 1_000_000 });
    const loc = (path: string) => `https://${site.hostname}${path}`;
    await ingest.upsert(site, [
      ...Array.from({ length: 9 }, (_, i) => ({ loc: loc(`/b/${i}`), section: 'blog' })),
      ...Array.from({ length: 9 }, (_, i) => ({ loc: loc(`/p/${i}`) })),
      { loc: loc(`/p/${'x'.repeat(200)}`) },
    ]);
    const urls = new UrlRepository(pool);
    const expected = [
      ...Array.from({ length: 9 }, (_, i) => loc(`/p/${i}`)),
      loc(`/p/${'x'.repeat(200)}`),
      ...Array.from({ length: 9 }, (_, i) => loc(`/b/${i}`)),
    ];
    const lineBytes = loc('/p/0').length + 1;
    // At most 7 URLs, and at most 7 short lines' bytes: the long line starts a file of its own.
    const files = await renderTextSitemapFiles(
      urls,
      store,
      { siteId: site.id },
      {
        maxUrls: 7,
        maxBytes: lineBytes * 7,
        pageSize: 3,
      },
    );
    const texts = await Promise.all(
      files.map(async ([path, file]) => {
        const body = gunzipSync((await store.get(site.id, file.sha256)) as Buffer).toString('utf8');
        expect(body.length).toBe(file.byteSize);
        return [path, body.split('\n').filter(Boolean)] as const;
      }),
    );
    expect(texts.map(([path, lines]) => [path, lines.length])).toEqual([
      ['sitemap.txt', 7],
      ['sitemap-2.txt', 2],
      ['sitemap-3.txt', 1],
      ['sitemap-4.txt', 7],
      ['sitemap-5.txt', 2],
    ]);
    expect(texts.flatMap(([, lines]) => lines)).toEqual(expected);
    for (const [, file] of files) expect(file.byteSize).toBeLessThanOrEqual(Math.max(lineBytes * 7, 250));
  });
});
