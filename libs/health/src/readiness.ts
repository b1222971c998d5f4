// Whether a process can do its work: each dependency it needs answers within a time limit.
// Every app builds one from the clients it already holds (no connection of its own), so the
// check sees what the app sees. Checks are typed by shape, not by library: this lib imports
// neither pg nor ioredis.

/** Resolves when the dependency answers; rejects (or outlasts the timeout) when it does not. */
export type HealthCheck = () => Promise<unknown>;

export type CheckState = 'ok' | 'down';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckState>;
  /** Why each failing check failed: for the process's log, never for the client. */
  failures: Record<string, string>;
}

export interface ReadinessOptions {
  /** A check that has not answered by then counts as down. */
  timeoutMs?: number;
  /** A report is reused this long: probes from many places (or a flood) cost one round of checks. */
  cacheMs?: number;
  /** Called when readiness flips, with the report that flipped it (to log why). */
  onChange?: (report: ReadinessReport) => void;
}

export class Readiness {
  private readonly timeoutMs: number;
  private readonly cacheMs: number;
  private pending: Promise<ReadinessReport> | undefined;
  private last: { report: ReadinessReport; at: number } | undefined;

  constructor(
    private readonly checks: Readonly<Record<string, HealthCheck>>,
    private readonly options: ReadinessOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.cacheMs = options.cacheMs ?? 1_000;
  }

  /** Runs every check at once; concurrent callers share one run. */
  report(): Promise<ReadinessReport> {
    if (this.last && Date.now() - this.last.at < this.cacheMs) return Promise.resolve(this.last.report);
    this.pending ??= this.run().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async run(): Promise<ReadinessReport> {
    const names = Object.keys(this.checks);
    const results = await Promise.all(names.map((name) => this.runOne(this.checks[name] as HealthCheck)));
    const report: ReadinessReport = { ready: true, checks: {}, failures: {} };
    names.forEach((name, i) => {
      const failure = results[i];
      report.checks[name] = failure === undefined ? 'ok' : 'down';
      if (failure !== undefined) {
        report.failures[name] = failure;
        report.ready = false;
      }
    });
    if (this.last?.report.ready !== report.ready && (this.last || !report.ready)) this.options.onChange?.(report);
    this.last = { report, at: Date.now() };
    return report;
  }

  /** Undefined when the check passed, else why it failed. */
  private runOne(check: HealthCheck): Promise<string | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(`no answer within ${this.timeoutMs} ms`), this.timeoutMs);
      const settle = (failure: string | undefined) => {
        clearTimeout(timer);
        resolve(failure);
      };
      try {
        check().then(
          () => settle(undefined),
          (error: unknown) => settle(error instanceof Error ? error.message || error.name : String(error)),
        );
      } catch (error) {
        settle(error instanceof Error ? error.message : String(error));
      }
    });
  }
}

/** Postgres answers a query (a pg Pool, or anything with the same `query`). */
export function postgresCheck(db: { query(sql: string): Promise<unknown> }): HealthCheck {
  return () => db.query('SELECT 1');
}

/**
 * Redis answers PING on this connection (ioredis; PING is allowed in subscriber mode too). A
 * connection that is not `ready` is down at once: a command sent to it would wait in ioredis's
 * offline queue (forever, on a worker's connection), not answer.
 */
export function redisCheck(redis: { status: string; ping(): Promise<unknown> }): HealthCheck {
  return async () => {
    if (redis.status !== 'ready') throw new Error(`connection ${redis.status}`);
    await redis.ping();
  };
}
