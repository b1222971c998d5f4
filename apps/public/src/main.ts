import './tracing';
import 'reflect-metadata';
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { AggregatorRegistry } from 'prom-client';
import { ConfigError, describeConfig, exitWithParent, loadConfig, type AppConfig } from '@sitemaps/config';
import {
  loggerOptions,
  PlatformMetrics,
  startMetricsServer,
  stopTracing,
  type MetricsServer,
} from '@sitemaps/observability';
import { createPublicApp } from './public.app';
import { superviseWorkers } from './public.cluster';

async function main(): Promise<void> {
  const config = loadConfig();
  // Cluster workers are the primary's children, and end with it.
  if (cluster.isPrimary) exitWithParent();
  if (cluster.isPrimary && config.public.workers > 1) {
    const options = {
      ...loggerOptions('public', config.logLevel),
      base: { app: 'public', pid: process.pid, role: 'primary' },
    };
    const logger = pino(options);
    // One scrape for the whole cluster: the primary asks every worker for its metrics (IPC) and sums them.
    const aggregator = new AggregatorRegistry();
    const metrics = await serveMetrics(config, logger, async () => ({
      contentType: aggregator.contentType,
      body: await aggregator.clusterMetrics(),
    }));
    const code = await superviseWorkers(config.public.workers, logger, () => describeConfig(config));
    await metrics?.close();
    process.exit(code);
  }
  await serve(config);
}

/** The whole app in this process: the only one, or one of the cluster's workers. */
async function serve(config: AppConfig): Promise<void> {
  const app = await createPublicApp(config);
  const metrics = app.get(PlatformMetrics);
  const logger = app.getHttpAdapter().getInstance().log as unknown as pino.Logger;
  if (cluster.isWorker) {
    // Answers the primary's requests for this worker's metrics.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics.registry]);
  }
  const metricsServer = cluster.isWorker ? undefined : await serveMetrics(config, logger, () => metrics.text());
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    Promise.all([app.close(), metricsServer?.close(), stopTracing()]).then(
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
  else
    log.info(
      { workers: 1, port: (app.getHttpServer().address() as AddressInfo).port, config: describeConfig(config) },
      'public server listening',
    );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

/** PUBLIC_METRICS_PORT's listener, when set. */
async function serveMetrics(
  config: AppConfig,
  logger: pino.Logger,
  source: () => Promise<{ contentType: string; body: string }>,
): Promise<MetricsServer | undefined> {
  if (config.metrics.publicPort === undefined) return undefined;
  const server = await startMetricsServer(config.metrics.host, config.metrics.publicPort, source);
  logger.info({ metricsPort: server.port }, `public metrics on http://${config.metrics.host}:${server.port}/metrics`);
  return server;
}
