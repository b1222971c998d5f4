import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { nestLogLevels, type AppConfig } from '@sitemaps/config';
import { WorkerModule } from './worker.module';

/** A Nest application context without HTTP: the processors start with it and stop on close(). */
export async function createWorkerApp(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    logger: nestLogLevels(config.logLevel),
  });
  return app.init();
}
