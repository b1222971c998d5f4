// After a publish: the site's URLs added, updated or deleted (deletes stamp updated_at too) in the
// window (cursor, publish moment], grouped by host, cut into batches of at most 10,000, one
// submit job per batch and endpoint. The cursor moves only once every batch is queued; the
// batch jobs retry on their own.
import type { BeforeApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { isAnnounceableHost } from '@sitemaps/domain';
import type { Pool, PoolClient } from 'pg';
import { awaitSiteUrlWrites } from '@sitemaps/data';
import {
  DEFAULT_JOB_OPTIONS,
  JOB,
  jobId,
  QUEUE,
  type DrainIndexNowPayload,
  type SubmitIndexNowPayload,
  type RedisConnection,
} from '@sitemaps/jobs';
import {
  endpointHash,
  INDEXNOW_BACKOFF,
  INDEXNOW_MAX_URLS,
  INDEXNOW_SETTLE_MS,
  SUBMIT_ATTEMPTS,
  SUBMIT_BACKOFF_BASE_MS,
  URL_HOST_SQL,
} from './indexnow.policy';
import { jobTelemetry } from '@sitemaps/observability';

interface BatchRow {
  host: string;
  first_id: string;
  last_id: string;
  url_count: number;
}

export interface DrainResult {
  batches: number;
  urls: number;
}

export class IndexNowDrainer implements BeforeApplicationShutdown {
  constructor(
    private readonly pool: Pool,
    private readonly queue: Queue,
    private readonly endpoints: readonly string[],
  ) {}

  static queue(connection: RedisConnection, prefix: string): Queue {
    return new Queue(QUEUE.indexnow, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS, ...jobTelemetry() });
  }

  /**
   * The module makes the queue for this class alone, so this class closes it: after the workers
   * have stopped (a publish finishing may still enqueue), before the Redis connection goes.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }

  /** Called once a manifest switch has committed: fixes the window in the job, which runs shortly after. */
  async enqueue(siteId: string, buildId: string): Promise<void> {
    const { rows } = await this.pool.query<{ cursor: Date | null; until: Date | null }>(
      `SELECT s.indexnow_cursor AS cursor, b.finished_at AS until FROM builds b JOIN sites s ON s.id = b.site_id WHERE b.id = $1`,
      [buildId],
    );
    const window = rows[0];
    if (!window?.until) return;
    const data: DrainIndexNowPayload = {
      v: 1,
      siteId,
      buildId,
      from: window.cursor?.toISOString() ?? null,
      until: window.until.toISOString(),
    };
    await this.queue.add(JOB.drainIndexNow, data, { jobId: jobId.drainIndexNow(buildId), delay: INDEXNOW_SETTLE_MS });
  }

  async drain(payload: DrainIndexNowPayload): Promise<DrainResult> {
    const db = await this.pool.connect();
    try {
      // Wait out URL writes in flight for this site (ingest holds this lock per transaction), so
      // the read below sees every change stamped up to `until` that is going to commit.
      await awaitSiteUrlWrites(db, payload.siteId);
      return await inTransaction(db, async () => {
        // One drain per site at a time, so two publishes in a row never submit one window twice.
        await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`site-indexnow:${payload.siteId}`]);
        const site = await db.query<{ cursor: Date | null }>(
          'SELECT indexnow_cursor AS cursor FROM sites WHERE id = $1',
          [payload.siteId],
        );
        if (site.rows.length === 0) return { batches: 0, urls: 0 }; // deleted with its site
        const until = new Date(payload.until);
        // A later publish's drain that ran first has covered part or all of this window.
        const from = later(payload.from ? new Date(payload.from) : null, site.rows[0]?.cursor ?? null);
        const batches =
          from && from >= until
            ? []
            : (await this.batches(db, payload.siteId, from, until)).filter((batch) => isAnnounceableHost(batch.host));
        if (batches.length > 0) await this.queueBatches(payload, from, batches);
        await db.query(
          'UPDATE sites SET indexnow_cursor = $2 WHERE id = $1 AND (indexnow_cursor IS NULL OR indexnow_cursor < $2)',
          [payload.siteId, until],
        );
        // An empty list rather than null: drained, whether or not anything changed.
        await db.query(`UPDATE builds SET indexnow = coalesce(indexnow, '[]'::jsonb) WHERE id = $1`, [payload.buildId]);
        return { batches: batches.length, urls: batches.reduce((sum, batch) => sum + batch.url_count, 0) };
      });
    } finally {
      db.release();
    }
  }

  /**
   * One MULTI: every batch is queued or none. A retry after a crash derives the same batches from
   * the same window, and their job ids make re-adding them a no-op.
   */
  private async queueBatches(payload: DrainIndexNowPayload, from: Date | null, batches: BatchRow[]): Promise<void> {
    const opts = {
      ...DEFAULT_JOB_OPTIONS,
      attempts: SUBMIT_ATTEMPTS,
      backoff: { type: INDEXNOW_BACKOFF, delay: SUBMIT_BACKOFF_BASE_MS },
    };
    const jobs = batches.flatMap((batch, index) =>
      this.endpoints.map((endpoint) => {
        const data: SubmitIndexNowPayload = {
          v: 1,
          siteId: payload.siteId,
          buildId: payload.buildId,
          batch: index + 1,
          endpoint,
          host: batch.host,
          from: from?.toISOString() ?? null,
          until: payload.until,
          firstId: batch.first_id,
          lastId: batch.last_id,
        };
        return {
          name: JOB.submitIndexNow,
          data,
          opts: { ...opts, jobId: jobId.submitIndexNow(payload.buildId, index + 1, endpointHash(endpoint)) },
        };
      }),
    );
    await this.queue.addBulk(jobs);
  }

  /** Per host in id order, cut every INDEXNOW_MAX_URLS: each batch's id range and size. */
  private async batches(db: PoolClient, siteId: string, from: Date | null, until: Date): Promise<BatchRow[]> {
    const { rows } = await db.query<BatchRow>(
      `WITH changed AS (
         SELECT id, ${URL_HOST_SQL} AS host FROM urls
          WHERE site_id = $1 AND ($2::timestamptz IS NULL OR updated_at > $2) AND updated_at <= $3),
       numbered AS (
         SELECT id, host, (row_number() OVER (PARTITION BY host ORDER BY id) - 1) / ${INDEXNOW_MAX_URLS} AS chunk
           FROM changed WHERE host IS NOT NULL)
       SELECT host, min(id)::text AS first_id, max(id)::text AS last_id, count(*)::int AS url_count
         FROM numbered GROUP BY host, chunk ORDER BY host, chunk`,
      [siteId, from, until],
    );
    return rows;
  }
}

async function inTransaction<T>(db: PoolClient, work: () => Promise<T>): Promise<T> {
  await db.query('BEGIN');
  try {
    const result = await work();
    await db.query('COMMIT');
    return result;
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

function later(a: Date | null, b: Date | null): Date | null {
  if (!a || !b) return a ?? b;
  return a > b ? a : b;
}
