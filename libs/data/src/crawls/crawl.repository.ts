// What crawlers fetched of each site: hourly counts (`crawl_fetches`) and, per file and verified
// crawler, the first and last read (`crawl_reads`). The public server adds its in-memory counts
// every few seconds; the API reads them per site; the maintenance jobs emit first-crawl and stale
// events and delete what is older than the retention.
import type { Pool } from 'pg';
import {
  INDEX_PATH,
  isRead,
  type CrawlFetchRow,
  type LastRead,
  type ManifestFiles,
  type StaleNotice,
} from '@sitemaps/domain';
import { manifestFilesSchema } from '../builds/build.schemas';
import { rollback } from '../prisma';

export interface CrawlRead {
  path: string;
  crawler: string;
  firstAt: Date;
  lastAt: Date;
}

export interface CrawlDay {
  day: string;
  crawler: string;
  verified: boolean;
  fetches: number;
  notModified: number;
  bytes: number;
}

export interface CrawlError {
  path: string;
  status: number;
  crawler: string;
  verified: boolean;
  fetches: number;
  lastAt: Date;
}

export interface FirstCrawl {
  siteId: string;
  crawler: string;
  firstAt: Date;
}

/** A site that asks for sitemap.stale, with what the decision needs. */
export interface StaleWatch {
  siteId: string;
  staleAfterDays: number;
  files: ManifestFiles;
  /** The last verified read of each of its files, by any crawler. */
  reads: LastRead[];
  notices: StaleNotice[];
}

export class CrawlRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Adds one flush's rows: counts add up, first and last fetches widen. Verified reads (2xx, 304)
   * move their file's first and last read. One statement per table, whatever the number of rows.
   */
  async record(rows: CrawlFetchRow[]): Promise<void> {
    if (rows.length === 0) return;
    const reads = new Map<string, { siteId: string; path: string; crawler: string; firstAt: Date; lastAt: Date }>();
    for (const row of rows) {
      if (!row.verified || !isRead(row.status)) continue;
      const key = `${row.siteId}\n${row.path}\n${row.crawler}`;
      const read = reads.get(key);
      if (!read) reads.set(key, { ...row });
      else {
        if (row.firstAt < read.firstAt) read.firstAt = row.firstAt;
        if (row.lastAt > read.lastAt) read.lastAt = row.lastAt;
      }
    }
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      // Sorted, so two processes flushing the same rows lock them in the same order.
      const sorted = [...rows].sort((a, b) => key(a).localeCompare(key(b)));
      await client.query(
        `INSERT INTO crawl_fetches (site_id, hour, path, crawler, verified, status, fetches, bytes, first_at, last_at)
         SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::boolean[], $6::int[],
                              $7::int[], $8::bigint[], $9::timestamptz[], $10::timestamptz[])
         ON CONFLICT (site_id, hour, path, crawler, verified, status) DO UPDATE SET
           fetches = crawl_fetches.fetches + excluded.fetches,
           bytes = crawl_fetches.bytes + excluded.bytes,
           first_at = least(crawl_fetches.first_at, excluded.first_at),
           last_at = greatest(crawl_fetches.last_at, excluded.last_at)`,
        [
          sorted.map((r) => r.siteId),
          sorted.map((r) => r.hour),
          sorted.map((r) => r.path),
          sorted.map((r) => r.crawler),
          sorted.map((r) => r.verified),
          sorted.map((r) => r.status),
          sorted.map((r) => r.fetches),
          sorted.map((r) => r.bytes),
          sorted.map((r) => r.firstAt),
          sorted.map((r) => r.lastAt),
        ],
      );
      if (reads.size > 0) {
        const list = [...reads.values()].sort((a, b) =>
          `${a.siteId}\n${a.path}\n${a.crawler}`.localeCompare(`${b.siteId}\n${b.path}\n${b.crawler}`),
        );
        await client.query(
          `INSERT INTO crawl_reads (site_id, path, crawler, first_at, last_at)
           SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[])
           ON CONFLICT (site_id, path, crawler) DO UPDATE SET
             first_at = least(crawl_reads.first_at, excluded.first_at),
             last_at = greatest(crawl_reads.last_at, excluded.last_at)`,
          [
            list.map((r) => r.siteId),
            list.map((r) => r.path),
            list.map((r) => r.crawler),
            list.map((r) => r.firstAt),
            list.map((r) => r.lastAt),
          ],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      broken = await rollback(client);
      // A site deleted since its fetches were counted: its rows go with it.
      if ((error as { code?: string }).code === '23503') return this.recordExisting(rows);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** `record` without the rows of sites that no longer exist. */
  private async recordExisting(rows: CrawlFetchRow[]): Promise<void> {
    const ids = [...new Set(rows.map((r) => r.siteId))];
    const { rows: existing } = await this.pool.query<{ id: string }>(
      'SELECT id FROM sites WHERE id = ANY($1::uuid[])',
      [ids],
    );
    const keep = new Set(existing.map((r) => r.id));
    const remaining = rows.filter((r) => keep.has(r.siteId));
    if (remaining.length < rows.length) await this.record(remaining);
  }

  /** Per file and verified crawler, the first and last read. */
  async reads(siteId: string): Promise<CrawlRead[]> {
    const { rows } = await this.pool.query<CrawlRead>(
      `SELECT path, crawler, first_at AS "firstAt", last_at AS "lastAt"
         FROM crawl_reads WHERE site_id = $1 ORDER BY path, crawler`,
      [siteId],
    );
    return rows;
  }

  /** Fetches per UTC day, crawler and verification since `since`. */
  async days(siteId: string, since: Date): Promise<CrawlDay[]> {
    const { rows } = await this.pool.query<CrawlDay>(
      `SELECT to_char(date_trunc('day', hour AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, crawler, verified,
              sum(fetches)::int AS fetches,
              (sum(fetches) FILTER (WHERE status = 304))::int AS "notModified",
              sum(bytes)::float8 AS bytes
         FROM crawl_fetches WHERE site_id = $1 AND hour >= $2
        GROUP BY 1, crawler, verified ORDER BY 1, crawler, verified DESC`,
      [siteId, since],
    );
    return rows.map((r) => ({ ...r, notModified: r.notModified ?? 0 }));
  }

  /** Every site's fetches per UTC day, crawler and verification since `since`, and how many sites they were of. */
  async totals(since: Date): Promise<(CrawlDay & { sites: number })[]> {
    const { rows } = await this.pool.query<CrawlDay & { sites: number }>(
      `SELECT to_char(date_trunc('day', hour AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, crawler, verified,
              sum(fetches)::int AS fetches,
              coalesce(sum(fetches) FILTER (WHERE status = 304), 0)::int AS "notModified",
              sum(bytes)::float8 AS bytes, count(DISTINCT site_id)::int AS sites
         FROM crawl_fetches WHERE hour >= $1
        GROUP BY 1, crawler, verified ORDER BY 1, crawler, verified DESC`,
      [since],
    );
    return rows;
  }

  /** 4xx and 5xx answers to crawlers (not `other`) since `since`, per file and status. */
  async errors(siteId: string, since: Date): Promise<CrawlError[]> {
    const { rows } = await this.pool.query<CrawlError>(
      `SELECT path, status, crawler, verified, sum(fetches)::int AS fetches, max(last_at) AS "lastAt"
         FROM crawl_fetches
        WHERE site_id = $1 AND hour >= $2 AND status >= 400 AND crawler <> 'other'
        GROUP BY path, status, crawler, verified ORDER BY max(last_at) DESC LIMIT 100`,
      [siteId, since],
    );
    return rows;
  }

  /** The first verified read of the index at or after `since` (a publish), by any crawler. */
  async firstIndexReadSince(siteId: string, since: Date): Promise<{ crawler: string; at: Date } | null> {
    const { rows } = await this.pool.query<{ crawler: string; at: Date }>(
      `SELECT crawler, CASE WHEN first_at >= $3 THEN first_at ELSE last_at END AS at
         FROM crawl_fetches
        WHERE site_id = $1 AND path = $2 AND verified AND last_at >= $3
          AND (status BETWEEN 200 AND 299 OR status = 304)
        ORDER BY 2 LIMIT 1`,
      [siteId, INDEX_PATH, since],
    );
    return rows[0] ?? null;
  }

  /** First verified reads of an index whose sitemap.first_crawl is not emitted yet. */
  async pendingFirstCrawls(limit: number): Promise<FirstCrawl[]> {
    const { rows } = await this.pool.query<FirstCrawl>(
      `SELECT site_id AS "siteId", crawler, first_at AS "firstAt" FROM crawl_reads
        WHERE path = $1 AND notified_at IS NULL ORDER BY first_at LIMIT $2`,
      [INDEX_PATH, limit],
    );
    return rows;
  }

  async markFirstCrawlNotified(crawl: FirstCrawl): Promise<void> {
    await this.pool.query(
      `UPDATE crawl_reads SET notified_at = now() WHERE site_id = $1 AND path = $2 AND crawler = $3`,
      [crawl.siteId, INDEX_PATH, crawl.crawler],
    );
  }

  /**
   * Published sites with `stale_after_days` set, in id order after `afterSiteId`, at most `limit`,
   * each with its files, last verified reads and the shard versions already announced.
   */
  async staleWatches(afterSiteId: string | null, limit: number): Promise<StaleWatch[]> {
    const { rows: sites } = await this.pool.query<{ siteId: string; staleAfterDays: number; files: unknown }>(
      `SELECT s.id AS "siteId", s.stale_after_days AS "staleAfterDays", m.files
         FROM sites s JOIN manifests m ON m.site_id = s.id
        WHERE s.stale_after_days IS NOT NULL AND ($1::uuid IS NULL OR s.id > $1::uuid)
        ORDER BY s.id LIMIT $2`,
      [afterSiteId, limit],
    );
    if (sites.length === 0) return [];
    const ids = sites.map((site) => site.siteId);
    const [reads, notices] = await Promise.all([
      this.pool.query<LastRead & { siteId: string }>(
        `SELECT site_id AS "siteId", path, max(last_at) AS "lastAt" FROM crawl_reads
          WHERE site_id = ANY($1::uuid[]) GROUP BY site_id, path`,
        [ids],
      ),
      this.pool.query<StaleNotice & { siteId: string }>(
        `SELECT site_id AS "siteId", path, modified_at AS "modifiedAt" FROM stale_shard_notices
          WHERE site_id = ANY($1::uuid[])`,
        [ids],
      ),
    ]);
    const bySite = <T extends { siteId: string }>(rows: T[]) => {
      const map = new Map<string, Omit<T, 'siteId'>[]>();
      for (const { siteId, ...rest } of rows) map.set(siteId, [...(map.get(siteId) ?? []), rest]);
      return map;
    };
    const readsOf = bySite(reads.rows);
    const noticesOf = bySite(notices.rows);
    return sites.map((site) => ({
      siteId: site.siteId,
      staleAfterDays: site.staleAfterDays,
      files: manifestFilesSchema.parse(site.files),
      reads: readsOf.get(site.siteId) ?? [],
      notices: noticesOf.get(site.siteId) ?? [],
    }));
  }

  /** Remembers that sitemap.stale was sent for this version of the shard (the newest version wins). */
  async markStaleNotified(siteId: string, notice: StaleNotice): Promise<void> {
    await this.pool.query(
      `INSERT INTO stale_shard_notices (site_id, path, modified_at) VALUES ($1, $2, $3)
       ON CONFLICT (site_id, path) DO UPDATE SET modified_at = excluded.modified_at, notified_at = now()
        WHERE stale_shard_notices.modified_at < excluded.modified_at`,
      [siteId, notice.path, notice.modifiedAt],
    );
  }

  /**
   * Hourly counts before `before`; reads not repeated since then of files no longer published, and
   * stale notices as old of such files. A published file keeps its last read however old, so a
   * shard read once and unchanged for longer than the retention is not taken for never read.
   */
  async deleteBefore(before: Date): Promise<{ fetches: number; reads: number; notices: number }> {
    const fetches = await this.pool.query('DELETE FROM crawl_fetches WHERE hour < $1', [before]);
    // The index's row stays: it says the first crawl was announced.
    const reads = await this.pool.query(
      `DELETE FROM crawl_reads r WHERE r.last_at < $1 AND r.path <> $2
          AND NOT EXISTS (SELECT 1 FROM manifests m WHERE m.site_id = r.site_id AND m.files ? r.path)`,
      [before, INDEX_PATH],
    );
    const notices = await this.pool.query(
      `DELETE FROM stale_shard_notices n WHERE n.notified_at < $1
          AND NOT EXISTS (SELECT 1 FROM manifests m WHERE m.site_id = n.site_id AND m.files ? n.path)`,
      [before],
    );
    return { fetches: fetches.rowCount ?? 0, reads: reads.rowCount ?? 0, notices: notices.rowCount ?? 0 };
  }
}

function key(row: CrawlFetchRow): string {
  return `${row.siteId}\n${row.hour.toISOString()}\n${row.path}\n${row.crawler}\n${row.verified}\n${row.status}`;
}
