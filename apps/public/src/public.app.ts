import { STATUS_CODES } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { clientErrorHandler, type AppConfig } from '@sitemaps/config';
import { CrawlTally } from '@sitemaps/domain';
import { Readiness } from '@sitemaps/health';
import { loggerOptions, PlatformMetrics } from '@sitemaps/observability';
import { AccessLog, AccessLogController, BatchedDestination, PinoNestLogger } from './public.logger';
import { PublicModule } from './public.module';
import { PublicServer } from './public.server';
import { PublicService } from './public.service';

/** The public server, wired and initialised but not listening: `main.ts` and tests call `listen`. */
export async function createPublicApp(config: AppConfig): Promise<NestFastifyApplication> {
  // Asynchronous, batched writes (BatchedDestination): a line costs its serialisation, not a write.
  // The pid tells the lines of a cluster's worker processes apart.
  // The same format as the other apps (libs/observability), in batched asynchronous writes, but
  // without redaction: this server sees no keys, and redacting cost 6.5 µs per access-log line,
  // a third of a 304's CPU (bench:serve: 21 -> 28 µs per 304, robots.txt 22 -> 33 µs).
  const destination = BatchedDestination.stdout();
  const logger = pino({ ...loggerOptions('public', config.logLevel), redact: undefined }, destination);
  // Request lines are made by AccessLog itself, in pino's format, into the same destination.
  const accessLog = new AccessLog(logger, destination);
  // Answers are counted by status in plain arrays (ResponseTally), summed into Prometheus on scrape.
  const metrics = new PlatformMetrics('public');
  // Fetches of sitemap files per crawler, counted in memory by both lanes (crawl-flusher.ts writes them).
  const crawls = config.crawls.enabled ? new CrawlTally({ maxKeys: 20_000, maxUserAgents: 2_000 }) : undefined;
  const server = new PublicServer(accessLog, metrics.publicTally, crawls, {
    maxHeaderBytes: 8_192,
    requestTimeoutMs: 10_000,
    keepAliveTimeoutMs: 30_000,
    trustedProxies: config.trustedProxies,
  });
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    logController: new AccessLogController(accessLog, metrics.publicTally, crawls),
    serverFactory: server.factory,
    // The access log's `ip` for what Fastify answers; the lane in front reads it the same way.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    clientErrorHandler: clientErrorHandler({
      contentType: 'text/plain; charset=utf-8',
      body: (status) => `${STATUS_CODES[status] ?? 'Error'}\n`,
    }),
    // No Nest middleware here: middie's per-request hook would be pure overhead.
    skipMiddie: true,
    // Crawlers keep connections open; on close, idle ones are dropped so shutdown is prompt.
    forceCloseConnections: 'idle',
    // Malformed URLs are refused before routing; Fastify's own answer would echo the path as JSON.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode ?? 400;
      // These never reach the access log's completion hook.
      request.log.info(
        { method: request.method, host: request.headers.host, url: request.url, status, code: error.code },
        'request refused',
      );
      void reply
        .status(status)
        .type('text/plain; charset=utf-8')
        .send(`${STATUS_CODES[status] ?? 'Error'}\n`);
    },
  });
  // Only GET and HEAD are served, and they carry no body: every other method reaches the handler
  // for its 405 without a body parser answering first.
  const fastify = adapter.getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const app = await NestFactory.create<NestFastifyApplication>(PublicModule.forRoot(config, metrics, crawls), adapter, {
    logger: new PinoNestLogger(logger.child({ component: 'nest' })),
    bodyParser: false,
  });
  await app.init();
  server.attach(app.get(PublicService), app.get(Readiness));
  return app;
}
