// Upserts and deletes of a site's URLs: validate each entry against the protocol, keep hreflang
// clusters reciprocal, render changed URLs' fragments (render at ingest), assign new URLs to
// shards and mark exactly the touched shards dirty, all in one transaction per batch. The bulk
// import (UrlImportService) runs the same preparer and batch writer on its own connection.
import type { Pool } from 'pg';
import { DEFAULT_SHARD_LIMITS, locHash, type ShardLimits } from '@sitemaps/domain';
import { UrlRepository } from '@sitemaps/data';
import { UrlBatchWriter, storedUrl } from './url-batch.writer';
import { prepareEntry, siteOrigin, type EntryError, type IngestSite, type PreparedEntry } from './url-entry.preparer';

export type { EntryError, IngestSite } from './url-entry.preparer';

export interface UpsertResult {
  /** Valid entries stored (changed or already equal). */
  upserted: number;
  /** URLs whose sitemap content changed, including cluster peers re-rendered. */
  changed: number;
  errors: EntryError[];
  warnings: EntryError[];
}

export class UrlIngestService {
  readonly writer: UrlBatchWriter;
  private readonly urls: UrlRepository;

  constructor(
    pool: Pool,
    private readonly onChange: (siteId: string) => Promise<void>,
    limits: ShardLimits = DEFAULT_SHARD_LIMITS,
  ) {
    this.writer = new UrlBatchWriter(limits);
    this.urls = new UrlRepository(pool);
  }

  /**
   * `now` (tests pass it) defaults to the moment the site's lock is held, so the updated_at that
   * IndexNow's cursor reads never lands behind a cursor advanced while this write waited.
   */
  async upsert(site: IngestSite, entries: readonly unknown[], now?: Date): Promise<UpsertResult> {
    const errors: EntryError[] = [];
    const warnings: EntryError[] = [];
    const byLoc = new Map<string, PreparedEntry>();
    const origin = siteOrigin(site);
    entries.forEach((entry, index) => {
      const prepared = prepareEntry(site, entry, index, { now: now ?? new Date(), origin });
      if (!prepared.ok) {
        errors.push(...prepared.errors);
        return;
      }
      warnings.push(...prepared.warnings);
      // The same loc twice in one batch: the later entry wins, as two requests would.
      byLoc.set(prepared.entry.hex, prepared.entry);
    });
    const upserted = entries.length - new Set(errors.map((error) => error.index)).size;
    if (byLoc.size === 0) return { upserted, changed: 0, errors, warnings };

    const { changed } = await this.urls.transaction(site.id, (db) =>
      this.writer.write(db, site, [...byLoc.values()], { now: now ?? new Date() }),
    );
    if (changed > 0) await this.onChange(site.id);
    return { upserted, changed, errors, warnings };
  }

  /** Soft-deletes URLs by loc; their shards become dirty and their cluster peers drop them. */
  async delete(
    site: IngestSite,
    locs: readonly string[],
    now?: Date,
  ): Promise<{ deleted: number; notFound: string[] }> {
    const unique = [...new Set(locs)];
    const result = await this.urls.transaction(site.id, (db) =>
      this.writer.softDelete(db, site, { locHashes: unique.map(locHash) }, now ?? new Date()),
    );
    if (result.changed > 0) await this.onChange(site.id);
    const found = new Set(result.deleted);
    return { deleted: result.count, notFound: unique.filter((loc) => !found.has(loc)) };
  }

  /**
   * Moves articles that aged out of the news window to the default section and re-renders them
   * without their news block. Run on a schedule; returns how many URLs changed.
   */
  async expireNews(site: IngestSite, now = new Date()): Promise<number> {
    const changed = await this.urls.transaction(site.id, async (db) => {
      const rows = await this.urls.expiredNews(db, site.id, now);
      const entries: PreparedEntry[] = rows.map((row, index) => ({
        index,
        hash: row.loc_hash,
        hex: row.loc_hash.toString('hex'),
        url: storedUrl(row),
        section: '',
        clientLastmod: row.lastmod_given ? (row.lastmod ?? undefined) : undefined,
        cluster: { action: 'keep' },
      }));
      return entries.length > 0 ? (await this.writer.write(db, site, entries, { now })).changed : 0;
    });
    if (changed > 0) await this.onChange(site.id);
    return changed;
  }

  /** Sites with articles past their news window, for the scheduled `expireNews`. */
  sitesWithExpiredNews(now = new Date()): Promise<IngestSite[]> {
    return this.urls.sitesWithExpiredNews(now);
  }
}
