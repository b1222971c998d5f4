import './tracing';
import type { Logger } from 'pino';
import { exitWithParent, loadConfig } from '@sitemaps/config';
import { logStarted, ROOT_LOGGER, stopTracing } from '@sitemaps/observability';
import { WorkerHttpServer } from './http/worker-http.server';
import { createWorkerApp } from './worker.app';

async function main(): Promise<void> {
  const config = loadConfig();
  exitWithParent();
  const app = await createWorkerApp(config);
  const logger = app.get<Logger>(ROOT_LOGGER);
  const stop = async () => {
    // A close that hangs (a blocking Redis connection after a cluster failover can) ends here.
    setTimeout(() => {
      logger.error({ timeoutMs: config.worker.shutdownTimeoutMs }, 'worker did not close in time; exiting');
      process.exit(1);
    }, config.worker.shutdownTimeoutMs).unref();
    await app.close();
    await stopTracing();
    process.exit(0);
  };
  const onSignal = () => {
    stop().catch((error: unknown) => {
      logger.error({ err: error }, 'worker did not close cleanly; exiting');
      process.exit(1);
    });
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const http = app.get(WorkerHttpServer).address();
  const base = `http://${http?.address}:${http?.port}`;
  logStarted(
    logger,
    { queues: config.worker.queues, httpPort: http?.port },
    `worker serving queues: ${config.worker.queues.join(', ')}; health on ${base}/health/ready, metrics on ${base}/metrics`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
