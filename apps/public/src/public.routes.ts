// The public server's one route, registered on Fastify directly: every path and method that the
// in-memory lane (public.server.ts) leaves lands here — a site or file not in memory yet — and
// the site's manifest, not a router, decides what exists. Nest's router and its per-request
// pipeline were a measurable share of a 304 (bench:serve, with --profile), so Nest only wires
// the service; this handler translates and is the error boundary.
import { STATUS_CODES } from 'node:http';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '@sitemaps/data';
import { PublicService, type PublicResponse } from './public.service';

@Injectable()
export class PublicRoutes implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly service: PublicService,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.all('*', (request, reply) => this.serve(request, reply));
  }

  private async serve(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    let response: PublicResponse;
    try {
      response = await this.service.respond({ method: request.method, url: request.url, headers: request.headers });
    } catch (error) {
      // Whatever failed, the client gets a bare status line: no stack, no message, no id. Postgres
      // unreachable with nothing of the site (or file) in memory: come back later, never a 404
      // (the sitemap is not gone) nor a 500.
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ host: request.headers.host, url: request.url }, 'database unavailable');
        response = UNAVAILABLE;
      } else {
        request.log.error({ err: error, host: request.headers.host, url: request.url }, 'public request failed');
        response = FAILED;
      }
    }
    return reply.code(response.status).headers(response.headers).send(response.body);
  }
}

const FAILED: PublicResponse = {
  status: 500,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: `${STATUS_CODES[500]}\n`,
};

const UNAVAILABLE: PublicResponse = {
  status: 503,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': String(DATABASE_RETRY_AFTER_S) },
  body: `${STATUS_CODES[503]}\n`,
};
