// The one place where errors become HTTP: DomainError kinds map to statuses, framework errors
// (malformed JSON, body too large, unknown route) to the same `{error: {code, message, details}}`
// shape. Clients never see a stack trace. A request that met the database or Redis unreachable
// (restarting, failing over) was not done, or not all of it: 503 with Retry-After, so clients and
// balancers retry it.
import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '@sitemaps/data';
import { DomainError, type ErrorDetail, type ErrorKind } from '@sitemaps/domain';
import { isRedisUnavailable, REDIS_RETRY_AFTER_S } from '@sitemaps/jobs';
import { lingerOnClose } from '../http/lingering-close';

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  // The tenant's plan refuses it, whatever the request: the same answer for every quota.
  quota: 403,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

const FRAMEWORK_CODES: Record<number, string> = {
  400: 'MALFORMED_BODY',
  404: 'ROUTE_NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

export interface ErrorBody {
  error: { code: string; message: string; details: ErrorDetail[] };
}

const logger = new Logger('http');

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): unknown {
    // A resolver's error goes back to GraphQL, whose one formatter (graphql-error.formatter) maps it.
    if (host.getType() !== 'http') return exception instanceof Error ? exception : new Error(String(exception));
    replyWithError(host.switchToHttp().getResponse<FastifyReply>(), exception);
    return undefined;
  }
}

/**
 * Also fastify's own error handler (see api.app.ts), for errors raised before a Nest handler
 * runs: body parsing and body size.
 */
export function replyWithError(reply: FastifyReply, exception: unknown): void {
  const [status, body] = errorResponse(exception);
  const unavailable = UNAVAILABLE[body.error.code];
  if (unavailable) {
    // One line, not a stack per request: during an outage every request lands here.
    logger.warn(
      `${unavailable.what} unavailable: ${exception instanceof Error ? exception.message : String(exception)}`,
    );
    void reply.header('retry-after', String(unavailable.retryAfterS));
  } else if (status >= 500)
    logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  // The rest of a refused body is not read (too large, or refused before it was wanted): the
  // connection cannot carry another request.
  if (status === 413 || !reply.request.raw.complete) {
    void reply.header('connection', 'close');
    lingerOnClose(reply.request.raw.socket);
  }
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
}

/** The codes of a dependency unreachable for now: what it is, and when to retry. */
const UNAVAILABLE: Record<string, { what: string; retryAfterS: number } | undefined> = {
  DATABASE_UNAVAILABLE: { what: 'database', retryAfterS: DATABASE_RETRY_AFTER_S },
  REDIS_UNAVAILABLE: { what: 'Redis', retryAfterS: REDIS_RETRY_AFTER_S },
};

function errorResponse(exception: unknown): [number, ErrorBody] {
  if (exception instanceof DomainError) {
    return [
      STATUS[exception.kind],
      { error: { code: exception.code, message: exception.message, details: exception.details } },
    ];
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // Our code throws DomainErrors only; these come from the framework (body parsing, routing).
    const code = FRAMEWORK_CODES[status] ?? `HTTP_${status}`;
    return [status, { error: { code, message: exception.message, details: [] } }];
  }
  // Fastify's own client errors (bad JSON, wrong content type, body limit) carry a statusCode.
  const fastify = exception as { statusCode?: number; apiCode?: string; message?: string };
  if (typeof fastify.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    const code = fastify.apiCode ?? FRAMEWORK_CODES[fastify.statusCode] ?? 'MALFORMED_BODY';
    return [fastify.statusCode, { error: { code, message: fastify.message ?? 'bad request', details: [] } }];
  }
  if (isDatabaseUnavailable(exception))
    return [
      503,
      {
        error: { code: 'DATABASE_UNAVAILABLE', message: 'the database is unavailable; retry later', details: [] },
      },
    ];
  // Redis (queues, limits) restarting or failing over: what Postgres took before is kept.
  if (isRedisUnavailable(exception))
    return [
      503,
      { error: { code: 'REDIS_UNAVAILABLE', message: 'the job queue is unavailable; retry later', details: [] } },
    ];
  return [500, { error: { code: 'INTERNAL', message: 'internal error', details: [] } }];
}
