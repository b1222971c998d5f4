// The urls aggregate (a site's URLs, with `pending_alternates`): the site's write lock and the
// transactions that hold it, and the reads of stored URLs. The bulk write path's queries (COPY,
// staged rows) are url-write.repository.ts and pending-alternate.repository.ts, called by the
// ingest lib's UrlBatchWriter inside `transaction`.
import type { Pool, PoolClient } from 'pg';
import { rollback } from '../prisma';

/** What runs queries: a pool, or a client checked out of it (a transaction). */
export type Queryable = Pick<PoolClient, 'query'>;

/**
 * One writer per site at a time: shard planning reads, then extends, the last shard, and the
 * site's URL counter (the tenant quota) is read and written by the same transaction.
 */
const siteUrlsLockKey = (siteId: string) => `site-urls:${siteId}`;

/** Takes the site's URL write lock for the rest of the caller's transaction. */
export async function lockSiteUrls(db: Queryable, siteId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [siteUrlsLockKey(siteId)]);
}

/**
 * Waits until no transaction holds the site's URL lock, without holding it: every write that
 * had begun before the call has then committed (or rolled back). Takes a session lock, so `db`
 * must be a checked-out client.
 */
export async function awaitSiteUrlWrites(db: Queryable, siteId: string): Promise<void> {
  await db.query('SELECT pg_advisory_lock(hashtextextended($1, 0)), pg_advisory_unlock(hashtextextended($1, 0))', [
    siteUrlsLockKey(siteId),
  ]);
}

/** Runs `work` in a transaction on one connection: COMMIT if it resolves, ROLLBACK if it throws. */
export async function inTransaction<T>(pool: Pool, work: (db: PoolClient) => Promise<T>): Promise<T> {
  const db = await pool.connect();
  let broken: Error | undefined;
  try {
    await db.query('BEGIN');
    const result = await work(db);
    await db.query('COMMIT');
    return result;
  } catch (error) {
    broken = await rollback(db);
    throw error;
  } finally {
    db.release(broken);
  }
}

/** Where a URL sits in shard order: the key a page of `locsInShardOrder` continues after. */
export interface UrlShardOrderKey {
  section: string;
  ordinal: number;
  id: string;
}

export interface UrlListFilter {
  prefix?: string | undefined;
  section?: string | undefined;
  changedSince?: Date | undefined;
  /** Only URLs kept out of the published files (true) or only published ones (false). */
  excluded?: boolean | undefined;
}

/** What an export selects among the site's live URLs. */
export interface UrlExportFilter {
  changedSince?: Date | undefined;
}

/** A live URL as an export writes it: what its import line needs, and nothing else. */
export interface ExportedUrlRow extends Omit<StoredUrlRow, 'id' | 'updatedAt' | 'excluded'> {
  /** The client's flag (not the site's rules, which apply by loc wherever the URLs go). */
  excluded: boolean;
}

/** Rows fetched per round trip by an export's cursor: its memory bound, whatever the site's size. */
export const EXPORT_FETCH_ROWS = 1_000;

export interface StoredUrlRow {
  id: string;
  loc: string;
  section: string;
  lastmod: string | null;
  changefreq: string | null;
  priority: number | null;
  images: unknown;
  videos: unknown;
  news: unknown;
  alternates: { hreflang: string; href: string }[] | null;
  /** Kept out of the published files, by the client's flag or by one of `exclusionPatterns`. */
  excluded: boolean;
  updatedAt: Date;
}

/** A live URL whose news article aged out of the news window, as stored. */
export interface ExpiredNewsRow {
  loc_hash: Buffer;
  loc: string;
  lastmod: string | null;
  lastmod_given: boolean;
  changefreq: string | null;
  priority: number | null;
  images: never;
  videos: never;
  news: never;
}

/** A site as ingest sees it. */
export interface SiteForIngest {
  id: string;
  scheme: string;
  hostname: string;
  defaultChangefreq: string | null;
  defaultPriority: number | null;
  shardSize: number | null;
  sectionShardSizes: unknown;
}

export class UrlRepository {
  constructor(private readonly pool: Pool) {}

  /** The site's live URLs past their news window (`news_until`) at `now`, in the caller's transaction. */
  async expiredNews(db: Queryable, siteId: string, now: Date): Promise<ExpiredNewsRow[]> {
    const { rows } = await db.query<ExpiredNewsRow>(
      `SELECT loc_hash, loc, lastmod, lastmod_given, changefreq, priority, images, videos, news FROM urls
        WHERE site_id = $1 AND news_until <= $2 AND deleted_at IS NULL`,
      [siteId, now],
    );
    return rows;
  }

  /** Sites with live URLs past their news window at `now`. */
  async sitesWithExpiredNews(now: Date): Promise<SiteForIngest[]> {
    const { rows } = await this.pool.query<{
      id: string;
      scheme: string;
      hostname: string;
      default_changefreq: string | null;
      default_priority: number | null;
      shard_size: number | null;
      section_shard_sizes: unknown;
    }>(
      `SELECT id, scheme, hostname, default_changefreq, default_priority, shard_size, section_shard_sizes FROM sites s
        WHERE s.id IN (SELECT u.site_id FROM urls u WHERE u.news_until <= $1 AND u.deleted_at IS NULL)`,
      [now],
    );
    return rows.map((row) => ({
      id: row.id,
      scheme: row.scheme,
      hostname: row.hostname,
      defaultChangefreq: row.default_changefreq,
      defaultPriority: row.default_priority,
      shardSize: row.shard_size,
      sectionShardSizes: row.section_shard_sizes,
    }));
  }

  /** A transaction that holds the site's URL write lock from its start. */
  transaction<T>(siteId: string, work: (db: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (db) => {
      await lockSiteUrls(db, siteId);
      return work(db);
    });
  }

  /**
   * The locs of the site's published URLs in shard order (section, ordinal, id): live, and neither
   * flagged excluded nor matched by one of `exclusionPatterns`; one page of at most `limit` after
   * the row `after` (null: from the first). Each row carries its key for the next page.
   */
  async locsInShardOrder(
    siteId: string,
    page: { after: UrlShardOrderKey | null; limit: number },
    exclusionPatterns: readonly string[] = [],
  ): Promise<(UrlShardOrderKey & { loc: string })[]> {
    const { after, limit } = page;
    const { rows } = await this.pool.query<UrlShardOrderKey & { loc: string }>(
      `SELECT u.loc, s.section, s.ordinal, u.id::text AS id FROM urls u JOIN shards s ON s.id = u.shard_id
        WHERE u.site_id = $1 AND u.deleted_at IS NULL AND NOT u.excluded AND NOT (u.loc ~ ANY($6::text[]))
          AND ($2::text IS NULL OR (s.section, s.ordinal, u.id) > ($2::text, $3::int, $4::bigint))
        ORDER BY s.section, s.ordinal, u.id
        LIMIT $5`,
      [siteId, after?.section ?? null, after?.ordinal ?? null, after?.id ?? null, limit, exclusionPatterns],
    );
    return rows;
  }

  /**
   * The site's live URLs in id order, in batches of `fetchRows`, from a server-side cursor in one
   * REPEATABLE READ snapshot: an export of millions of URLs holds one batch in memory, and sees
   * the site as it was when it began. The connection is held until the generator ends (a consumer
   * that stops early calls `return()`, as `for await` does, which closes the cursor).
   */
  async *exportBatches(
    siteId: string,
    filter: UrlExportFilter,
    fetchRows = EXPORT_FETCH_ROWS,
  ): AsyncGenerator<ExportedUrlRow[]> {
    const db = await this.pool.connect();
    let failed = false;
    try {
      await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await db.query(
        `DECLARE url_export NO SCROLL CURSOR FOR
           SELECT loc, section, lastmod, changefreq, priority, images, videos, news, alternates, excluded FROM urls
            WHERE site_id = $1 AND deleted_at IS NULL AND ($2::timestamptz IS NULL OR updated_at >= $2)
            ORDER BY id`,
        [siteId, filter.changedSince ?? null],
      );
      for (;;) {
        const { rows } = await db.query<ExportedUrlRow>(
          `FETCH FORWARD ${Math.max(1, Math.trunc(fetchRows))} FROM url_export`,
        );
        if (rows.length === 0) return;
        yield rows;
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      await db.query(failed ? 'ROLLBACK' : 'COMMIT').catch(() => undefined);
      db.release(failed);
    }
  }

  /**
   * Live URLs in id order (the order they were first stored), after `afterId`, at most `limit`.
   * `exclusionPatterns`: the site's exclusion rules (libs/domain), which say with the client's
   * flag whether a URL is excluded.
   */
  async list(
    siteId: string,
    filter: UrlListFilter,
    page: { afterId: string | undefined; limit: number; exclusionPatterns?: readonly string[] },
  ): Promise<StoredUrlRow[]> {
    const { rows } = await this.pool.query<StoredUrlRow>(
      `SELECT * FROM (
         SELECT id, loc, section, lastmod, changefreq, priority, images, videos, news, alternates,
                (excluded OR loc ~ ANY($7::text[])) AS excluded, updated_at AS "updatedAt" FROM urls
          WHERE site_id = $1 AND deleted_at IS NULL AND id > $2
            AND ($3::text IS NULL OR starts_with(loc, $3)) AND ($4::text IS NULL OR section = $4)
            AND ($5::timestamptz IS NULL OR updated_at >= $5)) page
        WHERE ($8::boolean IS NULL OR excluded = $8)
        ORDER BY id LIMIT $6`,
      [
        siteId,
        page.afterId ?? '0',
        filter.prefix ?? null,
        filter.section ?? null,
        filter.changedSince ?? null,
        page.limit,
        page.exclusionPatterns ?? [],
        filter.excluded ?? null,
      ],
    );
    return rows;
  }
}
