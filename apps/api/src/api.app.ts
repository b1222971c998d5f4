import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { nestLogLevels, type AppConfig } from '@sitemaps/config';
import { ApiModule } from './api.module';

/** 10,000 URL entries with media can reach tens of megabytes. */
const BODY_LIMIT = 64 * 1024 * 1024;

export async function createApiApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(config), new FastifyAdapter({ bodyLimit: BODY_LIMIT }), {
    logger: nestLogLevels(config.logLevel),
  });
  app.enableShutdownHooks();
  return app;
}
