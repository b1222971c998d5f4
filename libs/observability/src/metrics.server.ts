// `GET /metrics` on a listener of its own (API_METRICS_PORT, PUBLIC_METRICS_PORT): apart from the
// port clients and crawlers reach, so an operator keeps it private by not publishing it.
// `answerMetrics` is the same answer for a listener the app already has (the worker's).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const METRICS_PATH = '/metrics';

export type MetricsSource = () => Promise<{ contentType: string; body: string }>;

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Answers `GET /metrics`; false when the request is for something else. */
export function answerMetrics(request: IncomingMessage, response: ServerResponse, source: MetricsSource): boolean {
  const path = (request.url ?? '').split('?', 1)[0];
  if (path !== METRICS_PATH) return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response
      .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' })
      .end('Method Not Allowed\n');
    return true;
  }
  source().then(
    ({ contentType, body }) => {
      response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
    },
    (error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`metrics unavailable: ${error instanceof Error ? error.message : String(error)}\n`);
    },
  );
  return true;
}

export async function startMetricsServer(host: string, port: number, source: MetricsSource): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    if (!answerMetrics(request, response, source))
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
