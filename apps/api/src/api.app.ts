import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import { nestLogLevels, type AppConfig } from '@sitemaps/config';
import { apiLimits, type ApiLimitOverrides } from './api.limits';
import { ApiModule } from './api.module';
import { replyWithError } from './errors/http-error.filter';
import { setupOpenApi } from './openapi/openapi.setup';

/**
 * Mercurius is registered while Nest initialises, which makes fastify build Nest's routes before
 * Nest installs its error handler, so they would keep fastify's default one. This adapter
 * installs the API's handler up front (same mapping as HttpErrorFilter) and keeps it: body errors
 * (malformed JSON, too large) stay in the one error shape.
 */
class ApiFastifyAdapter extends FastifyAdapter {
  constructor(options: FastifyServerOptions) {
    super(options);
    this.getInstance().setErrorHandler((error, _request, reply) => replyWithError(reply, error));
  }

  override setErrorHandler(): never {
    return this.getInstance() as never;
  }
}

export async function createApiApp(config: AppConfig, limitOverrides: ApiLimitOverrides = {}): Promise<NestFastifyApplication> {
  // Bodies over the limit are refused before they are read: 413 PAYLOAD_TOO_LARGE.
  const adapter = new ApiFastifyAdapter({ bodyLimit: apiLimits(config.api.limits, limitOverrides).bodyLimitBytes });
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(config, limitOverrides), adapter, {
    logger: nestLogLevels(config.logLevel),
  });
  setupOpenApi(app);
  app.enableShutdownHooks();
  return app;
}
