// The public server's HTTP server, with a lane in front of Fastify: a request the service can
// answer from memory (a 304, robots.txt, a cached file, a refusal) is written straight to Node's
// response. Fastify's request and reply objects, hooks and per-request child logger were most of
// a 304's cost (bench:serve --profile). Everything else — a site or file not yet in memory, what
// Fastify itself refuses — goes to Fastify, and the route there answers through the same service.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import proxyAddr from '@fastify/proxy-addr';
import { hasDuplicateHost } from '@sitemaps/config';
import { answerHealth, healthProbeOf, type HealthProbe, type Readiness } from '@sitemaps/health';
import type { AccessLog } from './public.logger';
import { ResponseWriter } from './response.writer';
import type { PublicResponse, PublicService } from './public.service';
import type { ResponseTally } from '@sitemaps/observability';
import type { CrawlTally } from '@sitemaps/domain';

export interface PublicServerOptions {
  /** Request line plus headers: Node answers 431 beyond this. A crawler's GET needs a fraction. */
  maxHeaderBytes: number;
  /** A client gets this long to send its whole request (slow-loris)… */
  requestTimeoutMs: number;
  /** …and idles this long between requests. */
  keepAliveTimeoutMs: number;
  /** TRUSTED_PROXIES: peers whose X-Forwarded-For names the client in the access log. */
  trustedProxies: string[];
}

/** Asked by a TLS terminator, on any Host, before it gets a certificate for `?domain=`. */
export const TLS_ASK_PATH = '/tls/allowed';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const TLS_ASK_UNAVAILABLE: PublicResponse = {
  status: 503,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': '20' },
  body: 'Service Unavailable\n',
};

export class PublicServer {
  private service: PublicService | undefined;
  private readiness: Readiness | undefined;
  /** The client's address, as Fastify's `request.ip` has it with the same trustProxy. */
  private readonly clientAddress: (request: IncomingMessage) => string | undefined;
  private readonly writer: ResponseWriter;

  constructor(
    private readonly accessLog: AccessLog,
    private readonly tally: ResponseTally,
    private readonly crawls: CrawlTally | undefined,
    private readonly options: PublicServerOptions,
  ) {
    const trust = options.trustedProxies.length > 0 ? proxyAddr.compile(options.trustedProxies) : undefined;
    this.clientAddress = trust ? (request) => proxyAddr(request, trust) : (request) => request.socket.remoteAddress;
    this.writer = new ResponseWriter({ keepAliveTimeoutMs: options.keepAliveTimeoutMs });
  }

  /** Fastify's `serverFactory`: Fastify passes its own handler, the fallback. */
  readonly factory = (fastify: Handler): http.Server => {
    const options: http.ServerOptions & { optimizeEmptyRequests?: boolean } = {
      maxHeaderSize: this.options.maxHeaderBytes,
      // Node 24: a request without Content-Length or Transfer-Encoding (every GET and HEAD here)
      // is not run through the readable stream's end/close events; its nothing is dumped at once.
      optimizeEmptyRequests: true,
    };
    const server = http.createServer(options, (request, response) => this.handle(request, response, fastify));
    server.requestTimeout = this.options.requestTimeoutMs;
    server.keepAliveTimeout = this.options.keepAliveTimeoutMs;
    return server;
  };

  /** The lane opens once the app is initialised; until then Fastify answers everything. */
  attach(service: PublicService, readiness: Readiness): void {
    this.service = service;
    this.readiness = readiness;
  }

  private handle(request: IncomingMessage, response: ServerResponse, fastify: Handler): void {
    // Probes, on any Host: no site serves a path under /health. One prefix test per request.
    const url = request.url ?? '';
    const method = request.method;
    const probe = url.startsWith('/health') && (method === 'GET' || method === 'HEAD') ? healthProbeOf(url) : undefined;
    if (probe && this.readiness) return void this.answerProbe(probe, this.readiness, response);
    const started = performance.now();
    // A TLS terminator's question, on any Host too (docs/custom-domains.md).
    if (this.service && url.startsWith(TLS_ASK_PATH) && (method === 'GET' || method === 'HEAD')) {
      const rest = url.charAt(TLS_ASK_PATH.length);
      if (rest === '' || rest === '?') return void this.answerTlsAsk(this.service, request, response, started);
    }
    let answer: PublicResponse | undefined;
    try {
      answer = hasDuplicateHost(request.rawHeaders)
        ? {
            status: 400,
            headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': '12', connection: 'close' },
            body: 'Bad Request\n',
          }
        : this.service?.respondFromMemory({
            method: request.method ?? '',
            url: request.url ?? '',
            headers: request.headers,
          });
    } catch {
      // Fastify's route asks the service again and answers a failure as it answers any: logged, 500.
      answer = undefined;
    }
    if (!answer) return fastify(request, response);
    this.send(request, response, answer, { started });
  }

  /** Writes an answer and its access-log line (`started`: when the request arrived). */
  private send(
    request: IncomingMessage,
    response: ServerResponse,
    answer: PublicResponse,
    { started, error }: { started: number; error?: Error },
  ): void {
    this.writer.write(request, response, answer);
    this.tally.count(answer.status, true);
    // Every answer with a body states its length; a 304 has none.
    const length = answer.headers['content-length'];
    const bytes = length === undefined ? undefined : Number(length);
    const ip = this.clientAddress(request);
    // When it arrived, by the clock already read (Date.now() was a third of the cost of counting it).
    const at = performance.timeOrigin + started;
    this.crawls?.record({
      host: request.headers.host,
      url: request.url,
      userAgent: request.headers['user-agent'],
      address: ip,
      status: answer.status,
      bytes,
      at,
    });
    this.accessLog.write(
      {
        method: request.method,
        host: request.headers.host,
        url: request.url,
        status: answer.status,
        bytes,
        // Until the answer was handed to the socket.
        ms: performance.now() - started,
        userAgent: request.headers['user-agent'],
        ip,
      },
      error,
    );
  }

  private async answerTlsAsk(
    service: PublicService,
    request: IncomingMessage,
    response: ServerResponse,
    started: number,
  ): Promise<void> {
    let answer: PublicResponse;
    try {
      answer = await service.answerTlsAsk(request.url ?? '');
    } catch (error) {
      // No certificate while the database cannot say; the terminator asks again on a later handshake.
      return this.send(request, response, TLS_ASK_UNAVAILABLE, { started, error: error as Error });
    }
    this.send(request, response, answer, { started });
  }

  /** Not in the access log: an orchestrator probes every few seconds. */
  private async answerProbe(probe: HealthProbe, readiness: Readiness, response: ServerResponse): Promise<void> {
    const answer = await answerHealth(probe, readiness);
    response.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
    response.end(answer.body);
  }
}
