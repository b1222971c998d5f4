import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';

/**
 * Whatever fails, the client gets a bare status line as text: no stack, no message, no id.
 * Client errors Fastify raised before routing (a malformed body, say) keep their 4xx status.
 */
@Catch()
export class PublicExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const status = exception instanceof HttpException && exception.getStatus() < 500 ? exception.getStatus() : 500;
    if (status === 500)
      request.log.error({ err: exception, host: request.headers.host, url: request.url }, 'public request failed');
    if (!reply.sent)
      void reply
        .status(status)
        .type('text/plain; charset=utf-8')
        .send(`${STATUS_CODES[status] ?? 'Error'}\n`);
  }
}
