import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '@sitemaps/data';

/**
 * Whatever fails, the client gets a bare status line as text: no stack, no message, no id.
 * Client errors Fastify raised before routing (a malformed body, say) keep their 4xx status; an
 * unreachable database is a 503 with Retry-After (a crawler retries it and keeps what it had).
 */
@Catch()
export class PublicExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const unavailable = isDatabaseUnavailable(exception);
    const status = unavailable
      ? 503
      : exception instanceof HttpException && exception.getStatus() < 500
        ? exception.getStatus()
        : 500;
    if (status === 500)
      request.log.error({ err: exception, host: request.headers.host, url: request.url }, 'public request failed');
    if (unavailable) request.log.warn({ host: request.headers.host, url: request.url }, 'database unavailable');
    if (reply.sent) return;
    if (unavailable) void reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
    void reply
      .status(status)
      .type('text/plain; charset=utf-8')
      .send(`${STATUS_CODES[status] ?? 'Error'}\n`);
  }
}
