import './tracing';
import type { Logger } from 'pino';
import { exitWithParent, loadConfig } from '@sitemaps/config';
import { logStarted, PlatformMetrics, ROOT_LOGGER, startMetricsServer, stopTracing } from '@sitemaps/observability';
import { createApiApp } from './api.app';

async function main(): Promise<void> {
  const config = loadConfig();
  exitWithParent();
  const app = await createApiApp(config);
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onClose', async () => stopTracing());
  const logger = app.get<Logger>(ROOT_LOGGER);
  let metricsPort: number | undefined;
  if (config.metrics.apiPort !== undefined) {
    const metrics = app.get(PlatformMetrics);
    const server = await startMetricsServer(config.metrics.host, config.metrics.apiPort, () => metrics.text());
    fastify.addHook('onClose', async () => server.close());
    metricsPort = server.port;
  }
  await app.listen(config.api.port, config.api.host);
  logStarted(
    logger,
    { port: config.api.port, metricsPort },
    `api listening on http://${config.api.host}:${config.api.port}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
