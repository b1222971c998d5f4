// One JSON line and one metrics sample per API request, when its answer is sent: the request id
// (the client's X-Request-Id or a new UUID, echoed in the answer), the tenant whose key made it,
// the route pattern, status and duration. The key itself never appears: headers are not logged.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { redactPath, type PlatformMetrics } from '@sitemaps/observability';

/** A client's request id is kept when it is a plain token of sane length (it lands in logs). */
const CLIENT_REQUEST_ID = /^[\w.:/+=@-]{1,128}$/;

/** Fastify's genReqId; also stored on the raw request, where nestjs-pino's middleware finds it. */
export function requestIdOf(raw: IncomingMessage): string {
  const header = raw.headers['x-request-id'];
  const id = typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : randomUUID();
  (raw as IncomingMessage & { id?: string }).id = id;
  return id;
}

/** Routes probed every few seconds: their lines are debug, not info. */
const PROBES = /^\/health(\/|$)/;

export class RequestLog {
  private readonly log: Logger;

  constructor(
    logger: Logger,
    private readonly metrics: PlatformMetrics,
  ) {
    this.log = logger.child({ component: 'http' });
  }

  write(request: FastifyRequest, reply: FastifyReply, tenantId: string | undefined): void {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    const labels = { method: request.method, route, status: String(status) };
    this.metrics.httpRequests.inc(labels);
    this.metrics.httpDuration.observe(labels, ms / 1_000);
    const level = status >= 500 ? 'error' : PROBES.test(route) ? 'debug' : 'info';
    if (!this.log.isLevelEnabled(level)) return;
    const length = reply.getHeader('content-length');
    this.log[level](
      {
        requestId: request.id,
        tenantId,
        method: request.method,
        route,
        url: redactPath(request.url),
        status,
        ms: Math.round(ms * 10) / 10,
        bytes: length === undefined ? undefined : Number(length),
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      },
      'request',
    );
  }
}
