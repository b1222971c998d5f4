import { availableParallelism } from 'node:os';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// The long files: 200,000-URL imports, a production npm install, Chromium, a Redis Cluster, a
// streaming replica, the fault soak. `npm test` (CI) runs them; `npm run test:fast` does not.
// docs/testing.md says what each proves that no faster file does.
const LOAD = [
  'test/import-ndjson.e2e-spec.ts',
  'test/production-install.e2e-spec.ts',
  'test/console.e2e-spec.ts',
  'test/console-accounts.e2e-spec.ts',
  'test/xsl-stylesheet.e2e-spec.ts',
  'test/redis-cluster.e2e-spec.ts',
  'test/cluster-in-a-box.e2e-spec.ts',
  'test/api-replica.e2e-spec.ts',
  'test/fault-soak.e2e-spec.ts',
  'libs/jobs/src/connection.cluster.int-spec.ts',
  'libs/testing/src/postgres-replica.int-spec.ts',
  'apps/public/src/public.replica.int-spec.ts',
];

// Most files wait on servers, builds and sockets rather than compute, so more files run at once than
// there are cores (Vitest's default is cores - 1: one at a time on a 2-core CI machine). Each file has
// its own database and queue prefix. The load files run after the rest, one at a time: they start
// clusters, replicas and soaks that each want the machine.
const WORKERS = Math.max(3, availableParallelism());

// SWC instead of esbuild: Nest's dependency injection needs emitDecoratorMetadata.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    globalSetup: ['libs/testing/src/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Tiers a person can pick (`vitest run --project unit --project int`); `vitest run` runs all.
    projects: [
      { extends: true, test: { name: 'unit', include: ['{apps,libs,test}/**/*.spec.ts'], maxWorkers: WORKERS } },
      {
        extends: true,
        test: { name: 'int', include: ['{apps,libs,test}/**/*.int-spec.ts'], exclude: LOAD, maxWorkers: WORKERS },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['{apps,libs,test}/**/*.e2e-spec.ts'], exclude: LOAD, maxWorkers: WORKERS },
      },
      { extends: true, test: { name: 'load', include: LOAD, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
