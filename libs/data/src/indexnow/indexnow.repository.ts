// IndexNow's state of a site: the cursor up to which its changed URLs have been submitted, the
// changed URLs of a window grouped by host, and each build's record of the requests made.
import type { Pool, PoolClient } from 'pg';
import { z } from 'zod';
import { rollback } from '../prisma';
import { awaitSiteUrlWrites } from '../urls/url.repository';

/** The lowercase hostname of `urls.loc` (no userinfo, no port): IndexNow's `host`. */
const URL_HOST_SQL = `lower(substring(loc from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^/?#:]+)'))`;

/** One entry of `builds.indexnow`: one request made. */
export const indexNowResultSchema = z.object({
  at: z.string(),
  endpoint: z.string(),
  host: z.string(),
  batch: z.number().int().positive(),
  urlCount: z.number().int().nonnegative(),
  attempt: z.number().int().positive(),
  /** HTTP status, or null when no response came (network error, timeout). */
  status: z.number().int().nullable(),
  error: z.string().optional(),
});
export type IndexNowResult = z.infer<typeof indexNowResultSchema>;

/** The window of changes a publish announces: after the site's cursor, up to the build's end. */
export interface IndexNowWindow {
  cursor: Date | null;
  until: Date | null;
}

/** A site's changed URLs on one host, cut in id order: one request's worth. */
export interface IndexNowBatch {
  host: string;
  firstId: string;
  lastId: string;
  urlCount: number;
}

/** URLs changed in (from, until] on `host`, with ids in [firstId, lastId]: one batch, re-read. */
export interface ChangedUrlsQuery {
  siteId: string;
  host: string;
  firstId: string;
  lastId: string;
  from: Date | string | null;
  until: Date | string;
  limit: number;
}

/** Reads and writes of one drain, inside its transaction. */
export interface IndexNowDrain {
  /** The site's cursor; undefined when the site is gone. */
  cursor(): Promise<Date | null | undefined>;
  /** URLs changed in (from, until] per host in id order, cut every `batchSize`. */
  batches(window: { from: Date | null; until: Date; batchSize: number }): Promise<IndexNowBatch[]>;
  /** Moves the cursor to `until`, never back. */
  advanceCursor(until: Date): Promise<void>;
  /** An empty list rather than null on the build: drained, whether or not anything changed. */
  markDrained(buildId: string): Promise<void>;
}

export class IndexNowRepository {
  constructor(private readonly pool: Pool) {}

  /** The window a publish's drain covers; null when the build is gone. */
  async window(buildId: string): Promise<IndexNowWindow | null> {
    const { rows } = await this.pool.query<IndexNowWindow>(
      `SELECT s.indexnow_cursor AS cursor, b.finished_at AS until FROM builds b JOIN sites s ON s.id = b.site_id WHERE b.id = $1`,
      [buildId],
    );
    return rows[0] ?? null;
  }

  /** The site's scheme and IndexNow key; null when the site is gone. */
  async siteKey(siteId: string): Promise<{ scheme: string; key: string } | null> {
    const { rows } = await this.pool.query<{ scheme: string; key: string }>(
      'SELECT scheme, indexnow_key AS key FROM sites WHERE id = $1',
      [siteId],
    );
    return rows[0] ?? null;
  }

  /** The locs of one batch, in id order; fewer (or none) when they changed again since the drain. */
  async changedLocs(query: ChangedUrlsQuery): Promise<string[]> {
    const { rows } = await this.pool.query<{ loc: string }>(
      `SELECT loc FROM urls
        WHERE site_id = $1 AND id BETWEEN $2 AND $3 AND ($4::timestamptz IS NULL OR updated_at > $4) AND updated_at <= $5
          AND ${URL_HOST_SQL} = $6
        ORDER BY id LIMIT $7`,
      [query.siteId, query.firstId, query.lastId, query.from, query.until, query.host, query.limit],
    );
    return rows.map((row) => row.loc);
  }

  /** Appends to `builds.indexnow` in one statement: concurrent batches never lose each other's entries. */
  async recordResult(buildId: string, result: IndexNowResult): Promise<void> {
    await this.pool.query(
      `UPDATE builds SET indexnow = coalesce(indexnow, '[]'::jsonb) || jsonb_build_array($2::jsonb) WHERE id = $1`,
      [buildId, JSON.stringify(indexNowResultSchema.parse(result))],
    );
  }

  /**
   * Drains a window without reading it, for a worker with nowhere to submit: moves the cursor to
   * `until` (never back) and marks the build drained, in one statement that touches no URL row.
   * The site's row lock orders it with a concurrent drain; the cursor only moves forward.
   */
  async passOver(siteId: string, buildId: string, until: Date): Promise<void> {
    await this.pool.query(
      `WITH cursor AS (
         UPDATE sites SET indexnow_cursor = $3 WHERE id = $1 AND (indexnow_cursor IS NULL OR indexnow_cursor < $3))
       UPDATE builds SET indexnow = coalesce(indexnow, '[]'::jsonb) WHERE id = $2`,
      [siteId, buildId, until],
    );
  }

  /**
   * Runs `work` in a transaction holding the site's IndexNow lock (one drain per site at a time,
   * so two publishes in a row never submit one window twice), after URL writes in flight for the
   * site have finished: a read then sees every change stamped so far that is going to commit.
   */
  async drain<T>(siteId: string, work: (drain: IndexNowDrain) => Promise<T>): Promise<T> {
    const db = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await awaitSiteUrlWrites(db, siteId);
      await db.query('BEGIN');
      await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`site-indexnow:${siteId}`]);
      const result = await work(drainOf(db, siteId));
      await db.query('COMMIT');
      return result;
    } catch (error) {
      broken = await rollback(db);
      throw error;
    } finally {
      db.release(broken);
    }
  }
}

function drainOf(db: PoolClient, siteId: string): IndexNowDrain {
  return {
    async cursor() {
      const { rows } = await db.query<{ cursor: Date | null }>(
        'SELECT indexnow_cursor AS cursor FROM sites WHERE id = $1',
        [siteId],
      );
      return rows.length === 0 ? undefined : (rows[0]?.cursor ?? null);
    },
    async batches({ from, until, batchSize }) {
      const { rows } = await db.query<IndexNowBatch>(
        `WITH changed AS (
           SELECT id, ${URL_HOST_SQL} AS host FROM urls
            WHERE site_id = $1 AND ($2::timestamptz IS NULL OR updated_at > $2) AND updated_at <= $3),
         numbered AS (
           SELECT id, host, (row_number() OVER (PARTITION BY host ORDER BY id) - 1) / $4 AS chunk
             FROM changed WHERE host IS NOT NULL)
         SELECT host, min(id)::text AS "firstId", max(id)::text AS "lastId", count(*)::int AS "urlCount"
           FROM numbered GROUP BY host, chunk ORDER BY host, chunk`,
        [siteId, from, until, batchSize],
      );
      return rows;
    },
    async advanceCursor(until) {
      await db.query(
        'UPDATE sites SET indexnow_cursor = $2 WHERE id = $1 AND (indexnow_cursor IS NULL OR indexnow_cursor < $2)',
        [siteId, until],
      );
    },
    async markDrained(buildId) {
      await db.query(`UPDATE builds SET indexnow = coalesce(indexnow, '[]'::jsonb) WHERE id = $1`, [buildId]);
    },
  };
}
