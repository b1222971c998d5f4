import { STATUS_CODES } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { pino } from 'pino';
import type { AppConfig } from '@sitemaps/config';
import { AccessLogController, PinoNestLogger } from './public.logger';
import { PublicModule } from './public.module';

const MAX_HEADER_BYTES = 8_192;

/** The public server, wired and initialised but not listening: `main.ts` and tests call `listen`. */
export async function createPublicApp(config: AppConfig): Promise<NestFastifyApplication> {
  // Asynchronous writes: under load, lines queue while one write is in flight and go out together,
  // instead of one blocking write per request (bench:serve); pino flushes what is left on exit.
  const logger = pino({ level: config.logLevel, base: { app: 'public' } }, pino.destination({ dest: 1, sync: false }));
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    logController: new AccessLogController(),
    // No Nest middleware here: middie's per-request hook would be pure overhead.
    skipMiddie: true,
    // Crawlers keep connections open; on close, idle ones are dropped so shutdown is prompt.
    forceCloseConnections: 'idle',
    // Request line plus headers: Node answers 431 beyond this. A crawler's GET needs a fraction.
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    // A client gets this long to send its whole request (slow-loris), and idles this long between requests.
    requestTimeout: 10_000,
    keepAliveTimeout: 30_000,
    // Malformed URLs are refused before routing; Fastify's own answer would echo the path as JSON.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode ?? 400;
      // These never reach the access log's completion hook.
      request.log.info({ method: request.method, host: request.headers.host, url: request.url, status, code: error.code }, 'request refused');
      void reply.status(status).type('text/plain; charset=utf-8').send(`${STATUS_CODES[status] ?? 'Error'}\n`);
    },
  });
  // Only GET and HEAD are served, and they carry no body: every other method reaches the handler
  // for its 405 without a body parser answering first.
  const fastify = adapter.getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const app = await NestFactory.create<NestFastifyApplication>(PublicModule.forRoot(config), adapter, {
    logger: new PinoNestLogger(logger.child({ component: 'nest' })),
    bodyParser: false,
  });
  await app.init();
  return app;
}
