import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { inTransaction, PendingAlternateRepository, UrlWriteRepository } from '@sitemaps/data';
import { insertSite, type SiteRow, useTestPool } from '@sitemaps/testing';
import { prepareEntry, type PreparedEntry } from '../url-entry.preparer';
import { UrlIngestService } from '../url-ingest.service';
import { ClusterResolver } from './cluster-resolution';

// Cluster resolution against the real tables: links for a page the site has not stored wait in
// pending_alternates, the page takes them over when it comes, and stored peers come back to be
// re-rendered.
describe('ClusterResolver (real Postgres)', () => {
  let pool: Pool;
  let site: SiteRow;
  const urls = new UrlWriteRepository();
  const resolver = new ClusterResolver(urls, new PendingAlternateRepository());
  const now = new Date('2026-03-01T12:00:00Z');
  const loc = (path: string) => `https://${site.hostname}${path}`;
  const fixture = useTestPool();
  beforeAll(() => {
    pool = fixture.pool;
  });
  beforeEach(async () => {
    site = await insertSite(pool);
  });

  const prepared = (raws: object[]): PreparedEntry[] =>
    raws.map((raw, i) => (prepareEntry(site, raw, i, { now }) as { entry: PreparedEntry }).entry);
  const pending = async () =>
    (
      await pool.query<{ href: string; links: { href: string }[] }>(
        'SELECT href, links FROM pending_alternates WHERE site_id = $1 ORDER BY href',
        [site.id],
      )
    ).rows.map((row) => [row.href, row.links.map((link) => link.href)]);

  async function resolve(entries: PreparedEntry[]) {
    return inTransaction(pool, async (db) => {
      const existing = await urls.findExisting(
        db,
        site.id,
        entries.map((entry) => entry.hash),
      );
      return resolver.resolve(db, { site, entries, existing, departed: [] });
    });
  }

  it('keeps the links of a page not stored yet pending, and lets the page take them over', async () => {
    const declared = prepared([
      { loc: loc('/en'), hreflang: 'en', alternates: [{ hreflang: 'de', href: loc('/de') }] },
    ]);
    const { clusters, peers } = await resolve(declared);
    expect(peers).toEqual([]);
    expect(await pending()).toEqual([[loc('/de'), [loc('/de'), loc('/en')]]]);

    const [de] = prepared([{ loc: loc('/de') }]);
    const taken = await resolve([de as PreparedEntry]);
    expect(taken.clusters.linksOf((de as PreparedEntry).hex)?.map((link) => link.href)).toEqual([
      loc('/de'),
      loc('/en'),
    ]);
    expect(await pending()).toEqual([]);
    expect(clusters.linksOf((declared[0] as PreparedEntry).hex)).toHaveLength(2);
  });

  it('returns the stored pages a declaration names as peers, with their stored links', async () => {
    const ingest = new UrlIngestService(pool, async () => undefined);
    await ingest.upsert(site, [{ loc: loc('/de') }], now);
    const { peers, clusters } = await resolve(
      prepared([{ loc: loc('/en'), hreflang: 'en', alternates: [{ hreflang: 'de', href: loc('/de') }] }]),
    );
    expect(peers.map((row) => [row.loc, row.alternates])).toEqual([[loc('/de'), null]]);
    expect(clusters.linksOf(peers[0]?.loc_hash.toString('hex') as string)).toHaveLength(2);
    expect(await pending()).toEqual([]);
  });
});
