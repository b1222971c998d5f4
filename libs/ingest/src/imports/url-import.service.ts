// Bulk imports: a stream of entries of any size, validated and written while it is read, in
// batches that each commit on their own (progress and rejections are visible as they go).
//
// An import runs on one dedicated connection that holds a session advisory lock on the import
// for its whole life (ImportRun, libs/data). When the process dies, Postgres drops the session
// and with it the lock and any batch in flight; `sweep` (at boot, and when a running import is
// read) finds running imports whose lock is free and marks them failed. A `replace` deletes the
// URLs absent from the import only in the transaction that completes it, from a temporary table
// of the locs seen that lives and dies with that session: an interrupted replace deletes nothing.
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { FieldArena, ImportRunRepository, type ImportRun } from '@sitemaps/data';
import { URL_QUOTA_ISSUE } from '@sitemaps/domain';
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

/** Sitemaps imports repair what they can (entry-repair.ts); uploads are refused line by line, as PUT is. */
const repairs = (format: ImportFormat) => format === 'sitemap';

export class UrlImportService {
  private readonly runs: ImportRunRepository;

  constructor(
    pool: Pool,
    private readonly writer: UrlBatchWriter,
    private readonly onChange: (siteId: string) => Promise<void>,
    private readonly limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
  ) {
    this.runs = new ImportRunRepository(pool);
  }

  /** Creates a running import and opens its session. Throws IMPORT_RUNNING if the site has one. */
  async start(site: IngestSite, start: ImportStart): Promise<ImportSession> {
    const id = randomUUID();
    const opened = await this.runs.open(site.id, id, { kind: 'start', start, replace: start.mode === 'replace' });
    if (!opened) throw new Error(`import ${id} is locked by another session`);
    return this.session(opened.run, site, { mode: start.mode, repair: repairs(start.format) });
  }

  /** An import a worker will run: created queued, claimed by `resume`. */
  async enqueue(siteId: string, start: ImportStart): Promise<string> {
    const id = randomUUID();
    await this.runs.enqueue(siteId, id, start);
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
    // Only sitemaps imports are queued and resumed.
    const opened = await this.runs.open(site.id, importId, { kind: 'resume', replace: false });
    if (!opened) return null;
    return { session: this.session(opened.run, site, { mode: 'upsert', repair: true }), sourceUrl: opened.sourceUrl };
  }

  /** Marks failed every running import whose process is gone (its advisory lock is free). */
  sweep(siteId?: string): Promise<number> {
    return this.runs.sweep(siteId);
  }

  private session(run: ImportRun, site: IngestSite, how: { mode: ImportMode; repair: boolean }): ImportSession {
    return new ImportSession(run, {
      site,
      mode: how.mode,
      repair: how.repair,
      writer: this.writer,
      limits: this.limits,
      onChange: this.onChange,
    });
  }
}

/** The import was failed under a session that still ran (see the sweep): its work must not land. */
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

/** What a session runs with besides its connection. */
export interface ImportSessionContext {
  site: IngestSite;
  mode: ImportMode;
  writer: UrlBatchWriter;
  limits: ImportLimits;
  onChange: (siteId: string) => Promise<void>;
  /** Repair what entry-repair.ts can, with a warning each, instead of rejecting the line. */
  repair: boolean;
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
  readonly id: string;
  readonly mode: ImportMode;
  private readonly site: IngestSite;
  private readonly writer: UrlBatchWriter;
  private readonly limits: ImportLimits;
  private readonly onChange: (siteId: string) => Promise<void>;
  private readonly repair: boolean;

  constructor(
    private readonly run: ImportRun,
    context: ImportSessionContext,
  ) {
    ({
      site: this.site,
      mode: this.mode,
      writer: this.writer,
      limits: this.limits,
      onChange: this.onChange,
      repair: this.repair,
    } = context);
    this.id = run.id;
    this.origin = siteOrigin(this.site);
    // A checked-out client has no pool listener: a dropped connection would be an uncaught error.
    run.db.on('error', this.onConnectionError);
  }

  private readonly onConnectionError = (error: Error) => {
    this.failure ??= error;
  };

  push(item: ImportItem): Promise<void> | undefined {
    if (this.batchLines === 0) this.batchNow = new Date();
    if ('issue' in item) return this.take(item.line, item.issue, item.source);
    if ('notice' in item) {
      if (this.failure !== undefined) throw this.failure;
      this.warn(item.line, [item.notice], item.source);
      // Counted so that a batch holding only notices is written too.
      this.batchLines += 1;
      return undefined;
    }
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
    const { run } = this;
    await run.begin();
    try {
      await run.lockSiteUrls(this.site.id);
      if (this.mode === 'replace') {
        await run.prepareReplaceDeletion();
        const removed = await this.writer.softDelete(run.db, this.site, { notSeenByImport: true }, new Date());
        this.counters.deleted = removed.count;
        this.counters.changed += removed.changed;
      }
      if (!(await run.markCompleted(this.counters))) throw new ImportAbandonedError(this.id);
      await run.commit();
    } catch (error) {
      await run.rollback().catch(() => undefined);
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
    // The connection is let go whatever the mark does: with Postgres unreachable it fails too, and a
    // connection never released held a slot of the pool for good (and `pool.end()` at shutdown
    // waited for it: the API hung on SIGTERM). The import left running is swept as interrupted.
    let broken = true;
    try {
      broken = await this.run.markFailed(message);
    } finally {
      await this.close(broken);
    }
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
    await this.run.close(broken);
    this.run.db.off('error', this.onConnectionError);
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
    const { run } = this;
    await run.beginBatch();
    try {
      if (batch.entries.length > 0) {
        await run.lockSiteUrls(this.site.id);
        // Lines past the tenant's URL quota are rejected one by one; the rest of the batch is stored.
        const written = await this.writer.write(run.db, this.site, batch.entries, { now: batch.now, quota: 'reject' });
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
      await run.storeRejections(stored);
      this.storedRejections += stored.length;
      const warnings = batch.warnings.slice(0, Math.max(0, this.limits.maxStoredRejections - this.storedWarnings));
      await run.storeWarnings(warnings);
      this.storedWarnings += warnings.length;
      if (this.mode === 'replace') await run.addSeen([...batch.entries.map((entry) => entry.hash), ...batch.seen]);
      if (!(await run.recordProgress({ ...batch.totals, changed: this.counters.changed })))
        throw new ImportAbandonedError(this.id);
      await run.commit();
      this.committed = batch.totals;
      batch.arena.clear();
      this.spareArena = batch.arena;
    } catch (error) {
      await run.rollback().catch(() => undefined);
      throw error;
    }
  }
}
