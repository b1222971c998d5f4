// The public server's one route, registered on Fastify directly: every path and method that the
// in-memory lane (public.server.ts) leaves lands here — a site or file not in memory yet — and
// the site's manifest, not a router, decides what exists. Nest's router and its per-request
// pipeline were a measurable share of a 304 (bench:serve, with --profile), so Nest only wires
// the service; this handler translates and is the error boundary.
import { STATUS_CODES } from 'node:http';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
      // Whatever failed, the client gets a bare status line: no stack, no message, no id.
      request.log.error({ err: error, host: request.headers.host, url: request.url }, 'public request failed');
      response = {
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: `${STATUS_CODES[500]}\n`,
      };
    }
    return reply.code(response.status).headers(response.headers).send(response.body);
  }
}
