// The primary of a public server of several processes (PUBLIC_WORKERS > 1). Node 20 has no
// reusePort, so node:cluster shares the port: the primary accepts connections and hands them to
// the workers in turn (crawlers keep theirs open, so this costs little), and every worker runs the
// whole app with its own manifest cache, invalidated by the publish announcement on Redis like a
// single process's. The primary serves nothing and opens no connection of its own: it forks the
// workers, forks another when one dies, and passes SIGTERM/SIGINT on for a graceful stop.
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** A worker that dies this soon after the one before waits longer before it is replaced. */
const CRASH_WINDOW_MS = 60_000;
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * Runs until the workers have stopped after a signal (resolves 0, or 1 if one failed to stop
 * cleanly), or until a worker dies before all have started listening (resolves 1: a process
 * manager such as `npm start` should see a public server that cannot start).
 */
export function superviseWorkers(
  workers: number,
  logger: Logger,
  describe: () => Record<string, unknown>,
): Promise<number> {
  return new Promise((resolve) => {
    let started = false;
    let stopping = false;
    let exitCode = 0;
    const crashes: number[] = [];
    const restarts = new Set<NodeJS.Timeout>();

    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        // A second signal: stop waiting for them.
        logger.warn({ signal }, 'public workers killed');
        for (const worker of live()) worker.process.kill('SIGKILL');
        return;
      }
      stopping = true;
      for (const timer of restarts) clearTimeout(timer);
      logger.info({ signal, workers: live().length }, 'public server stopping');
      // The process, not `worker.kill()`: that would cut the IPC channel first, and a worker whose
      // channel closes exits on the spot instead of closing its connections.
      for (const worker of live()) worker.process.kill(signal);
      if (live().length === 0) resolve(exitCode);
    };
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, stop);

    const listening = new Set<number>();
    cluster.on('listening', (worker: Worker, address: { port: number }) => {
      listening.add(worker.id);
      if (started || live().some((other) => !listening.has(other.id))) return;
      started = true;
      logger.info({ workers, port: address.port, config: describe() }, 'public server listening');
    });

    cluster.on('exit', (worker: Worker, code: number | null, signal: NodeJS.Signals | null) => {
      listening.delete(worker.id);
      if (stopping) {
        if (code !== 0) exitCode = 1;
        if (live().length === 0) resolve(exitCode);
        return;
      }
      if (!started) {
        logger.error(
          { workerPid: worker.process.pid, code, signal },
          'a public worker exited while starting; stopping',
        );
        exitCode = 1;
        stop('SIGTERM');
        return;
      }
      const now = Date.now();
      crashes.push(now);
      while ((crashes[0] ?? now) < now - CRASH_WINDOW_MS) crashes.shift();
      const delayMs = crashes.length > 1 ? Math.min(MAX_RESTART_DELAY_MS, 100 * 2 ** crashes.length) : 0;
      logger.error(
        { workerPid: worker.process.pid, code, signal, restartInMs: delayMs },
        'a public worker exited; starting another',
      );
      const timer = setTimeout(() => {
        restarts.delete(timer);
        if (!stopping) cluster.fork();
      }, delayMs);
      restarts.add(timer);
    });

    for (let i = 0; i < workers; i++) cluster.fork();
  });
}

function live(): Worker[] {
  return Object.values(cluster.workers ?? {}).filter(
    (worker): worker is Worker => worker !== undefined && !worker.isDead(),
  );
}
