import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { clientErrorHandler, hasDuplicateHost, type AppConfig } from '@sitemaps/config';
import { createLogger, PlatformMetrics } from '@sitemaps/observability';
import { AccountsService } from './accounts/accounts.service';
import { QUEUE_BOARD_PATH, QueueBoard } from './admin/queue-board';
import { apiLimits, type ApiLimitOverrides, type ApiLimits } from './api.limits';
import { ApiModule } from './api.module';
import { serveConsole } from './console/console.static';
import { RequestAuthenticator } from './auth/request.authenticator';
import { replyWithError } from './errors/http-error.filter';
import { httpError, registerJsonBodyParser } from './http/json-body.parser';
import { lingerOnClose } from './http/lingering-close';
import { setupOpenApi } from './openapi/openapi.setup';
import { REDIS } from '@sitemaps/core';
import { RequestLog, requestIdOf } from './http/request-log';

const GRAPHQL_PATH = '/graphql';
/** Routes that take up to 10,000 entries; every other route takes a small body. */
const BULK_ROUTES = new Set(['PUT /v1/sites/:siteId/urls', 'DELETE /v1/sites/:siteId/urls', `POST ${GRAPHQL_PATH}`]);
/** Routes whose body is how a person authenticates (an email and password, an emailed token). */
const PUBLIC_BODY_ROUTES = new Set([
  '/v1/auth/sign-in',
  '/v1/auth/password-reset',
  '/v1/auth/password-reset/confirm',
  '/v1/auth/accept-invitation',
]);

/**
 * Fastify as the API wants it, set up before Nest or mercurius add a route:
 * - the API's error handler (same mapping as HttpErrorFilter) installed up front and kept, since
 *   mercurius makes fastify build Nest's routes before Nest would install it;
 * - body limits per route, JSON bounded before it is parsed (json-body.parser);
 * - a request that carries a body is authenticated before the body is read, and refused with
 *   `Connection: close`: an unauthenticated client cannot make the API buffer or parse anything.
 */
class ApiFastifyAdapter extends FastifyAdapter {
  private authenticator: RequestAuthenticator | undefined;
  private parsersRegistered = false;

  constructor(
    private readonly limits: ApiLimits,
    requestLog: RequestLog,
    trustedProxies: string[],
  ) {
    super({
      bodyLimit: limits.bodyLimitBytes,
      // request.ip — what the failed-authentication limiter counts, the request log and the audit
      // log record — is X-Forwarded-For's client only through a TRUSTED_PROXIES peer.
      trustProxy: trustedProxies.length > 0 ? trustedProxies : false,
      // From the client's X-Request-Id when it is a sane token, else a new UUID; echoed back.
      genReqId: requestIdOf,
      clientErrorHandler: clientErrorHandler({
        contentType: 'application/json; charset=utf-8',
        body: (_status, code, message) => JSON.stringify({ error: { code, message, details: [] } }),
      }),
      // A path the router cannot decode (`/%`) or a parameter too long: the API's error shape too.
      frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
        replyWithError(reply, httpError(error.statusCode ?? 400, error.message, frameworkErrorCode(error.code))),
    });
    const fastify = this.getInstance();
    fastify.setErrorHandler((error, _request, reply) => replyWithError(reply, error));
    fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (methods.some((method) => BULK_ROUTES.has(`${method} ${route.url}`)))
        route.bodyLimit ??= limits.bulkBodyLimitBytes;
      if (route.url === GRAPHQL_PATH)
        route.preValidation = [
          ...[route.preValidation ?? []].flat(),
          boundGraphqlDocument(limits.graphql.maxQueryLength),
        ];
    });
    fastify.addHook('onRequest', (request, reply, done) => {
      void reply.header('x-request-id', request.id);
      done();
    });
    fastify.addHook('onResponse', (request, reply, done) => {
      requestLog.write(request, reply, this.authenticator?.tenantOf(request));
      done();
    });
    fastify.addHook('onRequest', async (request, reply) => {
      if (hasDuplicateHost(request.raw.rawHeaders)) {
        void reply.header('connection', 'close');
        throw httpError(400, 'more than one Host header', 'MALFORMED_REQUEST');
      }
      // The queue board checks the admin key itself (Basic or Bearer), before its body is read.
      if (!announcesBody(request) || request.url.startsWith(`${QUEUE_BOARD_PATH}/`)) return;
      cutOffIdleBody(request, reply, limits.bodyIdleTimeoutMs);
      if (!this.authenticator || PUBLIC_BODY_ROUTES.has(request.routeOptions.url ?? '')) return;
      try {
        await this.authenticator.principalOf(request, reply);
      } catch (error) {
        void reply.header('connection', 'close');
        lingerOnClose(request.raw.socket);
        throw error;
      }
    });
  }

  /** Called once Nest has built the authenticator. */
  authenticateBodiesWith(authenticator: RequestAuthenticator): void {
    this.authenticator = authenticator;
  }

  /** Instead of Nest's parsers: bounded JSON only (no urlencoded forms: nothing takes them). */
  override registerParserMiddleware(): void {
    if (this.parsersRegistered) return;
    registerJsonBodyParser(this.getInstance(), this.limits.jsonMaxValues);
    this.parsersRegistered = true;
  }

  override setErrorHandler(): never {
    return this.getInstance<never>();
  }
}

/**
 * A body that stops arriving is cut off once its socket has been idle `ms`. Idle is the client's
 * fault only while the server waits for it: when the whole body is in (`complete`), or unread data
 * sits in the request's buffer (the server is behind: a lock, a slow database), the socket is kept
 * and the timer re-armed. Disarmed once the body is read; Node arms its keep-alive timeout after the
 * answer. The listener on the response stops Node's default of destroying the socket.
 */
function cutOffIdleBody(request: FastifyRequest, reply: FastifyReply, ms: number): void {
  const { raw } = request;
  const socket = raw.socket;
  const onIdle = () => {
    if (raw.complete) socket.setTimeout(0);
    else if (raw.readableLength > 0) socket.setTimeout(ms);
    else socket.destroy();
  };
  reply.raw.on('timeout', onIdle);
  socket.setTimeout(ms);
  raw.once('end', () => {
    socket.setTimeout(0);
    reply.raw.off('timeout', onIdle);
  });
}

function frameworkErrorCode(code: string): string {
  return code === 'FST_ERR_BAD_URL'
    ? 'MALFORMED_URL'
    : code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'URL_TOO_LONG'
      : 'MALFORMED_REQUEST';
}

function announcesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** graphql-js allocates per token: a long document is refused before it is parsed (batches too). */
function boundGraphqlDocument(maxLength: number) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const operations = [request.body ?? request.query].flat() as { query?: unknown }[];
    for (const operation of operations) {
      if (typeof operation?.query === 'string' && operation.query.length > maxLength) {
        throw httpError(
          413,
          `the GraphQL document is longer than ${maxLength.toLocaleString('en-US')} characters (GRAPHQL_MAX_QUERY_LENGTH)`,
        );
      }
    }
  };
}

export async function createApiApp(
  config: AppConfig,
  limitOverrides: ApiLimitOverrides = {},
): Promise<NestFastifyApplication> {
  const limits = apiLimits(config.api.limits, limitOverrides);
  const logger: Logger = createLogger('api', config.logLevel);
  const metrics = new PlatformMetrics('api');
  const adapter = new ApiFastifyAdapter(limits, new RequestLog(logger, metrics), config.trustedProxies);
  const app = await NestFactory.create<NestFastifyApplication>(
    ApiModule.forRoot(config, limitOverrides, { logger, metrics }),
    adapter,
    {
      bufferLogs: true,
    },
  );
  app.useLogger(app.get(PinoNestLogger));
  adapter.authenticateBodiesWith(app.get(RequestAuthenticator));
  if (config.api.adminApiKey) {
    const accounts = app.get(AccountsService);
    const board = new QueueBoard(app.get(REDIS), config.queuePrefix, config.api.adminApiKey, (request) =>
      accounts.isOperatorSession(request.headers.cookie),
    );
    const fastify = adapter.getInstance();
    await board.mount(fastify);
    fastify.addHook('onClose', async () => board.close());
  }
  setupOpenApi(app);
  await serveConsole(app, config.api.consoleDir);
  app.enableShutdownHooks();
  return app;
}
