// One pino logger for the process: Fastify's request logs and Nest's own lines, as JSON.
import type { LoggerService } from '@nestjs/common';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/** One access-log line per request, after the response: Fastify's default writes two. */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      host: request.headers.host,
      url: request.url,
      status: reply.statusCode,
      bytes: reply.getHeader('content-length'),
      ms: Math.round(reply.elapsedTime * 10) / 10,
      userAgent: request.headers['user-agent'],
      ip: request.ip,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.info(line, 'request');
  }
}

/** Nest's logger interface over pino; Nest passes the context (class name) as the last argument. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', message: unknown, rest: unknown[]): void {
    const context = rest.length > 0 && typeof rest.at(-1) === 'string' ? (rest.pop() as string) : undefined;
    const fields = { context, ...(rest.length > 0 ? { details: rest } : {}) };
    if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'string') this.logger[level](fields, message);
    else this.logger[level]({ ...fields, data: message });
  }
}
