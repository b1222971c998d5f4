// An import's run (libs/ingest's UrlImportService), on one dedicated connection that holds a
// session advisory lock on the import for its whole life. When the process dies, Postgres drops
// the session and with it the lock and any batch in flight; `sweep` finds running imports whose
// lock is free (or that made no progress for STALE_AFTER) and marks them failed. A replace keeps
// the locs it saw in a temporary table of that session (`import_seen`): an interrupted replace
// deletes nothing.
import type { Pool, PoolClient } from 'pg';
import { DomainError } from '@sitemaps/domain';
import { copyRows } from '../copy/pg-copy';
import { rollback } from '../prisma';
import { lockSiteUrls } from '../urls/url.repository';

export interface ImportStartRow {
  source: string;
  format: string;
  mode: string;
  sourceUrl?: string | undefined;
}

/** A line refused or repaired, as stored in import_rejections and import_warnings. */
export interface ImportLineIssue {
  line: number;
  issue: { code: string; field: string; message: string };
  source: string | null;
}

export interface ImportCounters {
  linesRead: number;
  stored: number;
  rejected: number;
  warnings: number;
  changed: number;
}

const INTERRUPTED =
  'interrupted: the process running this import stopped before it completed (a replace deleted nothing)';
/** A session that holds its lock but has made no progress this long is given up on. */
const STALE_AFTER = '30 minutes';
const STALE = `no progress for ${STALE_AFTER}: given up (a replace deleted nothing)`;
const lockKey = (importId: string) => `import:${importId}`;
const ISSUE_COLUMNS = {
  import_id: 'uuid',
  line: 'int4',
  code: 'text',
  field: 'text',
  reason: 'text',
  source: 'text',
} as const;

export type ImportOpening =
  /** A new running import. */
  | { kind: 'start'; start: ImportStartRow }
  /** A queued import, or one a dead process left behind; only sitemaps imports are resumed. */
  | { kind: 'resume' };

export class ImportRunRepository {
  constructor(private readonly pool: Pool) {}

  /** An import a worker will run: created queued, claimed by `open` with `resume`. */
  async enqueue(siteId: string, importId: string, start: ImportStartRow): Promise<void> {
    await this.pool.query(
      `INSERT INTO imports (id, site_id, source, format, mode, status, source_url) VALUES ($1, $2, $3, $4, $5, 'queued', $6)`,
      [importId, siteId, start.source, start.format, start.mode, start.sourceUrl ?? null],
    );
  }

  /** Marks failed every running import whose process is gone (its advisory lock is free). */
  async sweep(siteId?: string): Promise<number> {
    const db = await this.pool.connect();
    let broken: Error | undefined;
    try {
      return await sweepOn(db, siteId);
    } catch (error) {
      broken = await rollback(db);
      throw error;
    } finally {
      db.release(broken);
    }
  }

  /**
   * Takes the import's lock on a connection of its own and registers the run: `start` creates
   * it running, `resume` claims it (its rejections and counters reset). Throws IMPORT_RUNNING if
   * the site runs another import. Null when another session holds the import, or there is
   * nothing to resume (completed, or gone).
   */
  async open(
    siteId: string,
    importId: string,
    opening: ImportOpening & { replace: boolean },
  ): Promise<{ run: ImportRun; sourceUrl: string | null } | null> {
    const db = await this.pool.connect();
    let locked = false;
    try {
      const { rows } = await db.query<{ locked: boolean }>(
        `SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`,
        [lockKey(importId)],
      );
      locked = rows[0]?.locked === true;
      if (!locked) {
        db.release();
        return null;
      }
      await db.query('BEGIN');
      // One import per site at a time: a replace racing another import has no clear meaning.
      await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`site-imports:${siteId}`]);
      await sweepOn(db, siteId, importId);
      const running = await db.query<{ id: string }>(
        `SELECT id FROM imports WHERE site_id = $1 AND status = 'running' AND id <> $2 LIMIT 1`,
        [siteId, importId],
      );
      if (running.rows[0]) {
        throw new DomainError(
          'conflict',
          'IMPORT_RUNNING',
          `import ${running.rows[0].id} is still running for this site; wait for it to finish`,
        );
      }
      const claim = await register(db, { siteId, importId, opening });
      await db.query('COMMIT');
      const run = new ImportRun(importId, db, this.pool);
      if (!claim.claimed) {
        await run.close();
        return null;
      }
      if (opening.replace) {
        await db.query('DROP TABLE IF EXISTS import_seen');
        await db.query('CREATE TEMP TABLE import_seen (loc_hash bytea)');
      }
      return { run, sourceUrl: claim.sourceUrl };
    } catch (error) {
      const broken = await rollback(db);
      if (locked && !broken)
        await db
          .query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [lockKey(importId)])
          .catch(() => undefined);
      db.release(broken);
      throw error;
    }
  }
}

async function register(
  db: PoolClient,
  at: { siteId: string; importId: string; opening: ImportOpening },
): Promise<{ claimed: boolean; sourceUrl: string | null }> {
  const { siteId, importId, opening } = at;
  if (opening.kind === 'start') {
    const { start } = opening;
    await db.query(
      `INSERT INTO imports (id, site_id, source, format, mode, status, source_url, started_at, heartbeat_at)
       VALUES ($1, $2, $3, $4, $5, 'running', $6, now(), now())`,
      [importId, siteId, start.source, start.format, start.mode, start.sourceUrl ?? null],
    );
    return { claimed: true, sourceUrl: start.sourceUrl ?? null };
  }
  const { rows } = await db.query<{ status: string; source_url: string | null }>(
    `SELECT status, source_url FROM imports WHERE id = $1 AND site_id = $2 FOR UPDATE`,
    [importId, siteId],
  );
  const row = rows[0];
  if (!row || row.status === 'completed') return { claimed: false, sourceUrl: null };
  await db.query(`DELETE FROM import_rejections WHERE import_id = $1`, [importId]);
  await db.query(`DELETE FROM import_warnings WHERE import_id = $1`, [importId]);
  await db.query(
    `UPDATE imports SET status = 'running', error = NULL, lines_read = 0, stored = 0, rejected = 0, warnings = 0, changed = 0, deleted = 0,
            started_at = now(), finished_at = NULL, heartbeat_at = now() WHERE id = $1`,
    [importId],
  );
  return { claimed: true, sourceUrl: row.source_url };
}

/**
 * Fails running imports whose session is gone (their lock is free), or that made no progress
 * for STALE_AFTER (a hung process, or a connection Postgres has not noticed is dead). A stale
 * session that wakes up finds its import no longer running and rolls back (see ImportRun).
 */
async function sweepOn(db: PoolClient, siteId?: string, exceptId?: string): Promise<number> {
  const { rows } = await db.query<{ id: string; stale: boolean }>(
    `SELECT id, heartbeat_at < now() - $3::interval AS stale FROM imports
      WHERE status = 'running' AND ($1::uuid IS NULL OR site_id = $1) AND ($2::uuid IS NULL OR id <> $2)`,
    [siteId ?? null, exceptId ?? null, STALE_AFTER],
  );
  const failImport = async (id: string, reason: string) =>
    (
      await db.query(
        `UPDATE imports SET status = 'failed', error = $2, finished_at = now() WHERE id = $1 AND status = 'running'`,
        [id, reason],
      )
    ).rowCount ?? 0;
  let failed = 0;
  for (const { id, stale } of rows) {
    const got = await db.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`, [
      lockKey(id),
    ]);
    if (!got.rows[0]?.locked) {
      if (stale) failed += await failImport(id, STALE);
      continue;
    }
    try {
      failed += await failImport(id, INTERRUPTED);
    } finally {
      await db.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [lockKey(id)]);
    }
  }
  return failed;
}

/**
 * One running import's connection, holding its lock. Batches and the completion are
 * transactions on it (`begin`, `commit`, `rollback`); `db` is handed to the URL writer inside them.
 * The `mark…` and `record…` methods answer false when the import is no longer running (it was
 * given up on): the caller must then roll back.
 */
export class ImportRun {
  constructor(
    readonly id: string,
    readonly db: PoolClient,
    private readonly pool: Pool,
  ) {}

  async begin(): Promise<void> {
    await this.db.query('BEGIN');
  }

  /**
   * A batch's transaction: the commit that completes the import is synchronous and flushes the
   * WAL of every batch before it; a batch lost to a server crash leaves the import failed.
   */
  async beginBatch(): Promise<void> {
    await this.db.query('BEGIN');
    await this.db.query('SET LOCAL synchronous_commit = off');
  }

  async commit(): Promise<void> {
    await this.db.query('COMMIT');
  }

  async rollback(): Promise<void> {
    await this.db.query('ROLLBACK');
  }

  lockSiteUrls(siteId: string): Promise<void> {
    return lockSiteUrls(this.db, siteId);
  }

  /** Before a replace deletes what it did not see: statistics of `import_seen`, memory for the anti-join. */
  async prepareReplaceDeletion(): Promise<void> {
    await this.db.query('ANALYZE import_seen');
    await this.db.query(`SET LOCAL work_mem = '256MB'`);
  }

  async storeRejections(lines: readonly ImportLineIssue[]): Promise<void> {
    await this.copyIssues('import_rejections', lines);
  }

  async storeWarnings(lines: readonly ImportLineIssue[]): Promise<void> {
    await this.copyIssues('import_warnings', lines);
  }

  /** Locs a replace keeps (seen in the import). */
  async addSeen(hashes: readonly Buffer[]): Promise<void> {
    if (hashes.length === 0) return;
    await copyRows(this.db, {
      table: 'import_seen',
      columns: { loc_hash: 'bytea' },
      rows: hashes,
      toRow: (hash) => [hash],
    });
  }

  async recordProgress(counters: ImportCounters): Promise<boolean> {
    const progress = await this.db.query(
      `UPDATE imports SET lines_read = $2, stored = $3, rejected = $4, changed = $5, warnings = $6, heartbeat_at = now() WHERE id = $1 AND status = 'running'`,
      [this.id, counters.linesRead, counters.stored, counters.rejected, counters.changed, counters.warnings],
    );
    return progress.rowCount === 1;
  }

  async markCompleted(counters: ImportCounters & { deleted: number }): Promise<boolean> {
    const done = await this.db.query(
      `UPDATE imports SET status = 'completed', finished_at = now(), heartbeat_at = now(),
              lines_read = $2, stored = $3, rejected = $4, changed = $5, deleted = $6, warnings = $7 WHERE id = $1 AND status = 'running'`,
      [
        this.id,
        counters.linesRead,
        counters.stored,
        counters.rejected,
        counters.changed,
        counters.deleted,
        counters.warnings,
      ],
    );
    return done.rowCount === 1;
  }

  /**
   * Rolls back what is in flight and marks the import failed (its counters stay those of the last
   * committed batch). Returns whether the connection is broken (the mark then went through the pool).
   */
  async markFailed(message: string): Promise<boolean> {
    const update = `UPDATE imports SET status = 'failed', error = $2, finished_at = now(), heartbeat_at = now() WHERE id = $1 AND status = 'running'`;
    const params = [this.id, message.slice(0, 2_000)];
    try {
      await this.db.query('ROLLBACK');
      await this.db.query(update, params);
      return false;
    } catch {
      await this.pool.query(update, params);
      return true;
    }
  }

  /** Releases the lock and the connection; a broken connection is discarded. */
  async close(broken = false): Promise<void> {
    if (!broken) {
      try {
        await this.db.query('DROP TABLE IF EXISTS import_seen');
        await this.db.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [lockKey(this.id)]);
      } catch {
        broken = true;
      }
    }
    this.db.release(broken || undefined);
  }

  private async copyIssues(table: string, lines: readonly ImportLineIssue[]): Promise<void> {
    if (lines.length === 0) return;
    await copyRows(this.db, {
      table,
      columns: ISSUE_COLUMNS,
      rows: lines,
      toRow: (r) => [this.id, r.line, r.issue.code, r.issue.field, r.issue.message, r.source],
    });
  }
}
