import 'reflect-metadata';
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { ConfigError, describeConfig, exitWithParent, loadConfig, type AppConfig } from '@sitemaps/config';
import { createPublicApp } from './public.app';
import { superviseWorkers } from './public.cluster';

async function main(): Promise<void> {
  const config = loadConfig();
  // Cluster workers are the primary's children, and end with it.
  if (cluster.isPrimary) exitWithParent();
  if (cluster.isPrimary && config.public.workers > 1) {
    const logger = pino({ level: config.logLevel, base: { app: 'public', pid: process.pid, role: 'primary' } });
    process.exit(await superviseWorkers(config.public.workers, logger, () => describeConfig(config)));
  }
  await serve(config);
}

/** The whole app in this process: the only one, or one of the cluster's workers. */
async function serve(config: AppConfig): Promise<void> {
  const app = await createPublicApp(config);
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // A terminal's Ctrl-C reaches a worker twice, directly and through the primary, which kills
    // it on a second signal of its own; a single process dies on a second one, as by default.
    if (cluster.isWorker) process.on(signal, close);
    else process.once(signal, close);
  }
  await app.listen(config.public.port, config.public.host);
  const log = app.getHttpAdapter().getInstance().log;
  if (cluster.isWorker) log.info({ worker: cluster.worker?.id }, 'public worker listening');
  else log.info({ workers: 1, port: (app.getHttpServer().address() as AddressInfo).port, config: describeConfig(config) }, 'public server listening');
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
