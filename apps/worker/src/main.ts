import { exitWithParent, loadConfig } from '@sitemaps/config';
import { WorkerHttpServer } from './http/worker-http.server';
import { createWorkerApp } from './worker.app';

async function main(): Promise<void> {
  const config = loadConfig();
  exitWithParent();
  const app = await createWorkerApp(config);
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const http = app.get(WorkerHttpServer).address();
  console.log(`worker serving queues: ${config.worker.queues.join(', ')}; health on http://${http?.address}:${http?.port}/health/ready`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
