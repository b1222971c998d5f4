// The worker's one HTTP listener (WORKER_HTTP_PORT): a Nest app context has no HTTP server, and a
// framework for a few GET routes would be weight for nothing. Providers register their routes in
// `onModuleInit`; the listener opens once the app has bootstrapped and closes last on shutdown,
// so probes see a draining worker answer rather than refuse. Health is `worker-health.ts`;
// anything else an operator scrapes (metrics) registers here the same way.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG } from '@sitemaps/core';

/** Answers one GET (or HEAD) of its path; may be async. A throw is logged and answered 500. */
export type WorkerHttpHandler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

@Injectable()
export class WorkerHttpServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('http');
  private readonly routes = new Map<string, WorkerHttpHandler>();
  private server: http.Server | undefined;

  constructor(@Inject(CONFIG) private readonly config: AppConfig) {}

  /** Serves `path` (exact, query string ignored) to GET and HEAD. Register before bootstrap. */
  get(path: string, handler: WorkerHttpHandler): void {
    if (this.routes.has(path)) throw new Error(`worker HTTP route ${path} registered twice`);
    this.routes.set(path, handler);
  }

  /** Where it listens; undefined before bootstrap. */
  address(): AddressInfo | undefined {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const server = http.createServer(
      { maxHeaderSize: 8_192 },
      (request, response) => void this.handle(request, response),
    );
    server.requestTimeout = 10_000;
    server.keepAliveTimeout = 5_000;
    const { host, port } = this.config.worker.http;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const handler = this.routes.get(query === -1 ? url : url.slice(0, query));
    if (!handler) return end(response, 404, 'Not Found\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return end(response, 405, 'Method Not Allowed\n', { allow: 'GET, HEAD' });
    }
    try {
      await handler(request, response);
    } catch (error) {
      this.logger.error(`GET ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) end(response, 500, 'Internal Server Error\n');
      else response.destroy();
    }
  }
}

function end(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  const length = Buffer.byteLength(body);
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': length, ...headers });
  response.end(body);
}
