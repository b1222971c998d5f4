// The OpenAPI document without a running API: Nest resolves the module graph in preview mode
// (no provider is instantiated, so no database or Redis is reached). For the typed client
// (libs/client, `npm run client:generate`) and the lint (`npm run openapi:lint`).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { parseConfig } from '@sitemaps/config';
import { ApiModule } from '../api.module';
import { buildOpenApiDocument } from './openapi.document';

export async function generateOpenApiDocument(): Promise<OpenAPIObject> {
  // Never connected to: preview mode instantiates nothing.
  const config = parseConfig({
    DATABASE_URL: 'postgres://127.0.0.1:1/openapi',
    REDIS_URL: 'redis://127.0.0.1:1',
    LOG_LEVEL: 'silent',
  });
  const app = await NestFactory.create(ApiModule.forRoot(config), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
