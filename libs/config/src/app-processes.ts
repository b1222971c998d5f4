// How each app's Node process is started, shared by every launcher in this repo (npm start,
// benchmarks, tests that spawn apps); docker-compose.yml and the Dockerfile repeat it.

export type AppName = 'api' | 'worker' | 'public';

/**
 * Node flags per app. The API caps its V8 heap: left alone, V8 lets garbage from a bulk import
 * grow the heap to ~600 MB before collecting, though what is live stays far below the cap.
 * Its young generation is 8 MB a semi-space: PUT batches of 10,000 peaked at 313–357 MB with
 * V8's 16 MB (over the 350 MB target in 2 of 8 runs) and 311–335 MB with 8, for 1–3% more API
 * CPU per URL (interleaved runs of bench:ingest --only put, docs/benchmarks.md).
 */
export const APP_NODE_FLAGS: Readonly<Record<AppName, readonly string[]>> = {
  api: ['--max-old-space-size=256', '--max-semi-space-size=8'],
  worker: [],
  public: [],
};

/** The arguments to run an app as production does: compiled JavaScript (`npm run build`). */
export function appArgs(app: AppName): string[] {
  return [...APP_NODE_FLAGS[app], `dist/apps/${app}/src/main.js`];
}

/** Set by `npm start` for the apps it spawns: the process they must not outlive. */
export const PARENT_PID_ENV = 'SITEMAPS_PARENT_PID';

/**
 * When `npm start` is killed outright (SIGKILL: no chance to stop its children), its apps would
 * run on, holding their ports. Started by it, an app checks once a second that it still is its
 * parent's child and otherwise stops itself as SIGTERM would (its usual graceful shutdown).
 */
export function exitWithParent(intervalMs = 1_000): void {
  const parent = Number(process.env[PARENT_PID_ENV]);
  if (!parent || process.ppid !== parent) return;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, intervalMs);
  timer.unref();
}
