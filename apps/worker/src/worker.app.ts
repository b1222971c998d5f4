import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import type { AppConfig } from '@sitemaps/config';
import { createLogger, PlatformMetrics } from '@sitemaps/observability';
import { WorkerModule } from './worker.module';

/** A Nest application context without HTTP: the processors start with it and stop on close(). */
export async function createWorkerApp(config: AppConfig): Promise<INestApplicationContext> {
  const logger = createLogger('worker', config.logLevel);
  const metrics = new PlatformMetrics('worker');
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, { logger, metrics }), {
    bufferLogs: true,
  });
  app.useLogger(app.get(PinoNestLogger));
  return app.init();
}
