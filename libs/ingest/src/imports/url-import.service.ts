// Bulk imports: a stream of entries of any size, validated and written while it is read, in
// batches that each commit on their own (progress and rejections are visible as they go).
//
// An import runs on one dedicated connection that holds a session advisory lock on the import
// for its whole life. When the process dies, Postgres drops the session and with it the lock
// and any batch in flight; `sweep` (at boot, and when a running import is read) finds running
// imports whose lock is free and marks them failed. A `replace` deletes the URLs absent from
// the import only in the transaction that completes it, from a temporary table of the locs
// seen that lives and dies with that session: an interrupted replace deletes nothing.
import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { DomainError, URL_QUOTA_ISSUE } from '@sitemaps/domain';
import { copyRows, FieldArena, lockSiteUrls } from '@sitemaps/data';
import type { UrlBatchWriter } from '../url-batch.writer';
import {
  prepareEntry,
  siteOrigin,
  type IngestSite,
  type PreparedEntry,
  type PrepareResult,
} from '../url-entry.preparer';
import type { ImportFormat, ImportIssue, ImportItem, ImportMode, ImportProgress, ImportSource } from './import.types';

export interface ImportLimits {
  /** Lines per batch (one transaction each). */
  batchSize: number;
  /** A batch is also written once this old, so a slow upload still shows progress. */
  flushEveryMs: number;
  /** Rejections stored per import; beyond, they are only counted. */
  maxStoredRejections: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  batchSize: 2_000,
  flushEveryMs: 1_000,
  maxStoredRejections: 100_000,
};

export interface ImportStart {
  source: ImportSource;
  format: ImportFormat;
  mode: ImportMode;
  sourceUrl?: string;
}

const REJECTION_COLUMNS = {
  import_id: 'uuid',
  line: 'int4',
  code: 'text',
  field: 'text',
  reason: 'text',
  source: 'text',
} as const;
/** Sitemaps imports repair what they can (entry-repair.ts); uploads are refused line by line, as PUT is. */
const repairs = (format: ImportFormat) => format === 'sitemap';
const INTERRUPTED =
  'interrupted: the process running this import stopped before it completed (a replace deleted nothing)';
/** A session that holds its lock but has made no progress this long is given up on. */
const STALE_AFTER = '30 minutes';
const STALE = `no progress for ${STALE_AFTER}: given up (a replace deleted nothing)`;
const lockKey = (importId: string) => `import:${importId}`;

export class UrlImportService {
  constructor(
    private readonly pool: Pool,
    private readonly writer: UrlBatchWriter,
    private readonly onChange: (siteId: string) => Promise<void>,
    private readonly limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
  ) {}

  /** Creates a running import and opens its session. Throws IMPORT_RUNNING if the site has one. */
  async start(site: IngestSite, start: ImportStart): Promise<ImportSession> {
    const id = randomUUID();
    const session = await this.open(site, id, start.mode, repairs(start.format), async (db) => {
      await db.query(
        `INSERT INTO imports (id, site_id, source, format, mode, status, source_url, started_at, heartbeat_at)
         VALUES ($1, $2, $3, $4, $5, 'running', $6, now(), now())`,
        [id, site.id, start.source, start.format, start.mode, start.sourceUrl ?? null],
      );
    });
    if (!session) throw new Error(`import ${id} is locked by another session`);
    return session;
  }

  /** An import a worker will run: created queued, claimed by `resume`. */
  async enqueue(siteId: string, start: ImportStart): Promise<string> {
    const id = randomUUID();
    await this.pool.query(
      `INSERT INTO imports (id, site_id, source, format, mode, status, source_url) VALUES ($1, $2, $3, $4, $5, 'queued', $6)`,
      [id, siteId, start.source, start.format, start.mode, start.sourceUrl ?? null],
    );
    return id;
  }

  /**
   * Claims a queued import, or restarts one a dead process left behind (entries are upserts,
   * so running them again changes nothing that is already there). Null when it is completed,
   * gone, or running in a live process.
   */
  async resume(
    site: IngestSite,
    importId: string,
  ): Promise<{ session: ImportSession; sourceUrl: string | null } | null> {
    let sourceUrl: string | null = null;
    let claimable = false;
    // Only sitemaps imports are queued and resumed.
    const session = await this.open(site, importId, 'upsert', true, async (db) => {
      const { rows } = await db.query<{ status: string; mode: ImportMode; source_url: string | null }>(
        `SELECT status, mode, source_url FROM imports WHERE id = $1 AND site_id = $2 FOR UPDATE`,
        [importId, site.id],
      );
      const row = rows[0];
      if (!row || row.status === 'completed') return;
      claimable = true;
      sourceUrl = row.source_url;
      await db.query(`DELETE FROM import_rejections WHERE import_id = $1`, [importId]);
      await db.query(`DELETE FROM import_warnings WHERE import_id = $1`, [importId]);
      await db.query(
        `UPDATE imports SET status = 'running', error = NULL, lines_read = 0, stored = 0, rejected = 0, warnings = 0, changed = 0, deleted = 0,
                started_at = now(), finished_at = NULL, heartbeat_at = now() WHERE id = $1`,
        [importId],
      );
    });
    if (!session) return null;
    if (!claimable) {
      await session.close();
      return null;
    }
    return { session, sourceUrl };
  }

  /** Marks failed every running import whose process is gone (its advisory lock is free). */
  async sweep(siteId?: string): Promise<number> {
    const db = await this.pool.connect();
    try {
      return await sweepOn(db, siteId);
    } finally {
      db.release();
    }
  }

  private async open(
    site: IngestSite,
    id: string,
    mode: ImportMode,
    repair: boolean,
    register: (db: PoolClient) => Promise<void>,
  ): Promise<ImportSession | null> {
    const db = await this.pool.connect();
    let locked = false;
    try {
      const { rows } = await db.query<{ locked: boolean }>(
        `SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`,
        [lockKey(id)],
      );
      locked = rows[0]?.locked === true;
      if (!locked) {
        db.release();
        return null;
      }
      await db.query('BEGIN');
      // One import per site at a time: a replace racing another import has no clear meaning.
      await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`site-imports:${site.id}`]);
      await sweepOn(db, site.id, id);
      const running = await db.query<{ id: string }>(
        `SELECT id FROM imports WHERE site_id = $1 AND status = 'running' AND id <> $2 LIMIT 1`,
        [site.id, id],
      );
      if (running.rows[0]) {
        throw new DomainError(
          'conflict',
          'IMPORT_RUNNING',
          `import ${running.rows[0].id} is still running for this site; wait for it to finish`,
        );
      }
      await register(db);
      await db.query('COMMIT');
      if (mode === 'replace') {
        await db.query('DROP TABLE IF EXISTS import_seen');
        await db.query('CREATE TEMP TABLE import_seen (loc_hash bytea)');
      }
      return new ImportSession(id, db, site, mode, this.writer, this.limits, this.onChange, this.pool, repair);
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      if (locked)
        await db.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [lockKey(id)]).catch(() => undefined);
      db.release();
      throw error;
    }
  }
}

/**
 * Fails running imports whose session is gone (their lock is free), or that made no progress
 * for STALE_AFTER (a hung process, or a connection Postgres has not noticed is dead). A stale
 * session that wakes up finds its import no longer running and rolls back (see ImportSession).
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

/** The import was failed under a session that still ran (see sweepOn): its work must not land. */
class ImportAbandonedError extends Error {
  constructor(id: string) {
    super(`import ${id} is no longer running (it was given up on); this batch was rolled back`);
  }
}

interface Rejection {
  line: number;
  issue: ImportIssue;
  source: string | null;
}

interface Batch {
  entries: PreparedEntry[];
  rejections: Rejection[];
  /** Repairs made to the batch's stored lines: the same shape as rejections. */
  warnings: Rejection[];
  /** Locs of rejected lines that a replace must not delete. */
  seen: Buffer[];
  now: Date;
  /** Where its entries' rows were staged. */
  arena: FieldArena;
  /** Counters as of the batch's last line; the next batch fills while this one is written. */
  totals: { linesRead: number; stored: number; rejected: number; warnings: number };
}

/**
 * One running import. `push` prepares each item at once (validation and hashing, while the
 * previous batch is in Postgres) and returns a promise only when it has to wait for that batch.
 */
export class ImportSession {
  readonly counters = { linesRead: 0, stored: 0, rejected: 0, warnings: 0, changed: 0, deleted: 0 };
  /** The counters as of the last committed batch: what a failed import reports. */
  private committed = { linesRead: 0, stored: 0, rejected: 0, warnings: 0 };
  private pending = new Map<string, PreparedEntry>();
  private rejections: Rejection[] = [];
  private warnings: Rejection[] = [];
  private storedWarnings = 0;
  private seen: Buffer[] = [];
  private batchLines = 0;
  private batchNow = new Date();
  private lastFlush = Date.now();
  private storedRejections = 0;
  /**
   * Whether to stage entries' rows as they are read (UrlBatchWriter.stage): while most URLs are
   * new, as in a first import. Re-imports of stored URLs stop it after a batch, so they do not
   * render rows they will not insert.
   */
  private staging = true;
  /** The batch being read stages into `arena`; a written batch's arena is cleared for reuse. */
  private arena = new FieldArena();
  private spareArena: FieldArena | undefined;
  private inflight: Promise<void> = Promise.resolve();
  private failure: unknown;
  private closed = false;
  private readonly origin: string;

  constructor(
    readonly id: string,
    private readonly db: PoolClient,
    private readonly site: IngestSite,
    readonly mode: ImportMode,
    private readonly writer: UrlBatchWriter,
    private readonly limits: ImportLimits,
    private readonly onChange: (siteId: string) => Promise<void>,
    private readonly pool: Pool,
    /** Repair what entry-repair.ts can, with a warning each, instead of rejecting the line. */
    private readonly repair = false,
  ) {
    this.origin = siteOrigin(site);
    // A checked-out client has no pool listener: a dropped connection would be an uncaught error.
    db.on('error', this.onConnectionError);
  }

  private readonly onConnectionError = (error: Error) => {
    this.failure ??= error;
  };

  push(item: ImportItem): Promise<void> | undefined {
    if (this.batchLines === 0) this.batchNow = new Date();
    if ('issue' in item) return this.take(item.line, item.issue, item.source);
    if ('entry' in item) {
      const outcome = prepareEntry(this.site, item.entry, item.line, {
        now: this.batchNow,
        origin: this.origin,
        repair: this.repair,
      });
      return this.take(item.line, outcome, item.source, item.warnings);
    }
    return this.take(item.line, undefined, undefined);
  }

  private take(
    line: number,
    outcome: PrepareResult | ImportIssue | undefined,
    source: string | undefined,
    read?: ImportIssue[],
  ): Promise<void> | undefined {
    if (this.failure !== undefined) throw this.failure;
    this.counters.linesRead += 1;
    this.batchLines += 1;
    if (outcome && 'code' in outcome) this.reject(line, [outcome], source);
    else if (outcome?.ok) {
      this.counters.stored += 1;
      if (read && read.length > 0) this.warn(line, read, source);
      if (outcome.warnings.length > 0) this.warn(line, outcome.warnings, source);
      if (this.staging) this.writer.stage(this.site.id, outcome.entry, this.batchNow, this.arena);
      // The same loc twice in a batch: the later line wins, as it would a batch later.
      this.pending.set(outcome.entry.hex, outcome.entry);
    } else if (outcome) {
      this.reject(line, outcome.errors, source);
      if (this.mode === 'replace' && outcome.locHash) this.seen.push(outcome.locHash);
    }
    if (this.batchLines >= this.limits.batchSize || Date.now() - this.lastFlush >= this.limits.flushEveryMs)
      return this.flush();
    return undefined;
  }

  /** Writes what is left, applies a replace's deletions, and marks the import completed. */
  async complete(): Promise<ImportProgress> {
    if (this.batchLines > 0) await this.flush();
    await this.inflight;
    if (this.failure !== undefined) throw this.failure;
    const { db } = this;
    await db.query('BEGIN');
    try {
      await lockSiteUrls(db, this.site.id);
      if (this.mode === 'replace') {
        await db.query('ANALYZE import_seen');
        await db.query(`SET LOCAL work_mem = '256MB'`);
        const removed = await this.writer.softDelete(db, this.site, { notSeenByImport: true }, new Date());
        this.counters.deleted = removed.count;
        this.counters.changed += removed.changed;
      }
      const done = await db.query(
        `UPDATE imports SET status = 'completed', finished_at = now(), heartbeat_at = now(),
                lines_read = $2, stored = $3, rejected = $4, changed = $5, deleted = $6, warnings = $7 WHERE id = $1 AND status = 'running'`,
        [
          this.id,
          this.counters.linesRead,
          this.counters.stored,
          this.counters.rejected,
          this.counters.changed,
          this.counters.deleted,
          this.counters.warnings,
        ],
      );
      if (done.rowCount !== 1) throw new ImportAbandonedError(this.id);
      await db.query('COMMIT');
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      this.failure = error;
      throw error;
    }
    await this.close();
    if (this.counters.changed > 0) await this.onChange(this.site.id);
    return this.completed();
  }

  /**
   * Records the failure (what was committed stays; a replace deletes nothing) and lets go.
   * `keepPending` first writes what was pushed, e.g. the rejection that explains the failure.
   */
  async fail(error: unknown, opts: { keepPending?: boolean } = {}): Promise<ImportProgress> {
    const message = error instanceof Error ? error.message : String(error);
    if (this.closed)
      return {
        id: this.id,
        status: 'failed',
        mode: this.mode,
        ...this.committed,
        changed: this.counters.changed,
        deleted: 0,
        error: message,
      };
    if (opts.keepPending && this.failure === undefined && this.batchLines > 0)
      await this.flush().catch(() => undefined);
    await this.inflight;
    // The counters stay those of the last committed batch: what is stored, not what was read.
    const update = `UPDATE imports SET status = 'failed', error = $2, finished_at = now(), heartbeat_at = now() WHERE id = $1 AND status = 'running'`;
    const params = [this.id, message.slice(0, 2_000)];
    let broken = false;
    try {
      await this.db.query('ROLLBACK');
      await this.db.query(update, params);
    } catch {
      broken = true;
      await this.pool.query(update, params);
    }
    await this.close(broken);
    if (this.counters.changed > 0) await this.onChange(this.site.id);
    return {
      id: this.id,
      status: 'failed',
      mode: this.mode,
      ...this.committed,
      changed: this.counters.changed,
      deleted: 0,
      error: message,
    };
  }

  /** Releases the lock and the connection; a broken connection is discarded. */
  async close(broken = false): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!broken) {
      try {
        await this.db.query('DROP TABLE IF EXISTS import_seen');
        await this.db.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [lockKey(this.id)]);
      } catch {
        broken = true;
      }
    }
    this.db.off('error', this.onConnectionError);
    this.db.release(broken || undefined);
  }

  private completed(): ImportProgress {
    return { id: this.id, status: 'completed', mode: this.mode, ...this.counters, error: null };
  }

  private reject(line: number, issues: ImportIssue[], source: string | undefined, into = this.rejections): void {
    this.counters.rejected += 1;
    for (const issue of issues) into.push({ line, issue, source: source ?? null });
  }

  private warn(line: number, issues: ImportIssue[], source: string | undefined): void {
    this.counters.warnings += issues.length;
    for (const { code, field, message } of issues)
      this.warnings.push({ line, issue: { code, field, message }, source: source ?? null });
  }

  /** Hands the filled batch to Postgres after the previous one has committed. */
  private async flush(): Promise<void> {
    const { linesRead, stored, rejected, warnings } = this.counters;
    const batch: Batch = {
      entries: [...this.pending.values()],
      rejections: this.rejections,
      warnings: this.warnings,
      seen: this.seen,
      now: this.batchNow,
      arena: this.arena,
      totals: { linesRead, stored, rejected, warnings },
    };
    this.arena = this.spareArena ?? new FieldArena();
    this.spareArena = undefined;
    this.pending = new Map();
    this.rejections = [];
    this.warnings = [];
    this.seen = [];
    this.batchLines = 0;
    this.lastFlush = Date.now();
    await this.inflight;
    if (this.failure !== undefined) throw this.failure;
    this.inflight = this.write(batch).catch((error: unknown) => {
      this.failure = error;
    });
  }

  private async write(batch: Batch): Promise<void> {
    const { db } = this;
    await db.query('BEGIN');
    try {
      // The commit that completes the import is synchronous and flushes the WAL of every batch
      // before it; a batch lost to a server crash leaves the import failed, not completed.
      await db.query('SET LOCAL synchronous_commit = off');
      if (batch.entries.length > 0) {
        await lockSiteUrls(db, this.site.id);
        // Lines past the tenant's URL quota are rejected one by one; the rest of the batch is stored.
        const written = await this.writer.write(db, this.site, batch.entries, { now: batch.now, quota: 'reject' });
        this.counters.changed += written.changed;
        this.staging = written.inserted * 2 >= batch.entries.length;
        for (const entry of written.overQuota) {
          this.counters.stored -= 1;
          batch.totals.stored -= 1;
          batch.totals.rejected += 1;
          this.reject(entry.index, [URL_QUOTA_ISSUE], undefined, batch.rejections);
        }
      }
      const room = Math.max(0, this.limits.maxStoredRejections - this.storedRejections);
      const stored = batch.rejections.slice(0, room);
      if (stored.length > 0) {
        await copyRows(db, {
          table: 'import_rejections',
          columns: REJECTION_COLUMNS,
          rows: stored,
          toRow: (r) => [this.id, r.line, r.issue.code, r.issue.field, r.issue.message, r.source],
        });
        this.storedRejections += stored.length;
      }
      const warnings = batch.warnings.slice(0, Math.max(0, this.limits.maxStoredRejections - this.storedWarnings));
      if (warnings.length > 0) {
        await copyRows(db, {
          table: 'import_warnings',
          columns: REJECTION_COLUMNS,
          rows: warnings,
          toRow: (r) => [this.id, r.line, r.issue.code, r.issue.field, r.issue.message, r.source],
        });
        this.storedWarnings += warnings.length;
      }
      if (this.mode === 'replace') {
        const hashes = [...batch.entries.map((entry) => entry.hash), ...batch.seen];
        if (hashes.length > 0)
          await copyRows(db, {
            table: 'import_seen',
            columns: { loc_hash: 'bytea' },
            rows: hashes,
            toRow: (hash) => [hash],
          });
      }
      const progress = await db.query(
        `UPDATE imports SET lines_read = $2, stored = $3, rejected = $4, changed = $5, warnings = $6, heartbeat_at = now() WHERE id = $1 AND status = 'running'`,
        [
          this.id,
          batch.totals.linesRead,
          batch.totals.stored,
          batch.totals.rejected,
          this.counters.changed,
          batch.totals.warnings,
        ],
      );
      if (progress.rowCount !== 1) throw new ImportAbandonedError(this.id);
      await db.query('COMMIT');
      this.committed = batch.totals;
      batch.arena.clear();
      this.spareArena = batch.arena;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}
