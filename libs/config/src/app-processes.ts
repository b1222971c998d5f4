// How each app's Node process is started, shared by every launcher in this repo (npm start,
// benchmarks, tests that spawn apps); docker-compose.yml and the Dockerfile repeat it.

export type AppName = 'api' | 'worker' | 'public';

/**
 * Node flags per app. The API caps its V8 heap: left alone, V8 lets garbage from a bulk import
 * grow the heap to ~600 MB before collecting, though what is live stays far below the cap.
 */
export const APP_NODE_FLAGS: Readonly<Record<AppName, readonly string[]>> = {
  api: ['--max-old-space-size=256'],
  worker: [],
  public: [],
};

/** The arguments to run an app as production does: compiled JavaScript (`npm run build`). */
export function appArgs(app: AppName): string[] {
  return [...APP_NODE_FLAGS[app], `dist/apps/${app}/src/main.js`];
}
