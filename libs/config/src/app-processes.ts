// How each app's Node process is started, shared by every launcher in this repo (npm start,
// benchmarks, tests that spawn apps); docker-compose.yml and the Dockerfile repeat it.

export type AppName = 'api' | 'worker' | 'public';

/**
 * Node flags per app. The API caps its V8 heap: left alone, V8 lets garbage from a bulk import
 * grow the heap to ~600 MB before collecting, though what is live stays far below the cap.
 * Its young generation is larger than V8's 16 MB default: a bulk import keeps each batch's
 * entries alive for about two batch-times, and with small semi-spaces they were copied twice and
 * promoted, then collected again by full GCs. With 64 MB, bench:ingest (1,000,000 URLs) went from
 * 44.7 to 33.8 µs of API CPU per URL, at 345 MB peak RSS against 293 MB (target: < 400 MB).
 */
export const APP_NODE_FLAGS: Readonly<Record<AppName, readonly string[]>> = {
  api: ['--max-old-space-size=256', '--max-semi-space-size=64'],
  worker: [],
  public: [],
};

/** The arguments to run an app as production does: compiled JavaScript (`npm run build`). */
export function appArgs(app: AppName): string[] {
  return [...APP_NODE_FLAGS[app], `dist/apps/${app}/src/main.js`];
}
