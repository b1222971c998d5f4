// One pino logger for the process: Fastify's request logs and Nest's own lines, as JSON.
import type { LoggerService } from '@nestjs/common';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { ResponseTally } from '@sitemaps/observability';
import type { CrawlTally } from '@sitemaps/domain';

/** POSIX keeps a pipe write of at most this many bytes whole, whoever else writes the pipe. */
const PIPE_BUF = 4_096;
/** The longest a line waits for its chunk to fill. */
const FLUSH_MS = 100;

/** A sonic-boom, as far as the batching needs one. */
interface FlushableTarget {
  write(chunk: string): unknown;
  flush?(done: (error?: Error) => void): void;
  flushSync?(): void;
}

/**
 * Where pino's lines go: gathered into chunks of whole lines of at most PIPE_BUF bytes, each
 * written asynchronously (sonic-boom, off the event loop) once full or FLUSH_MS after its first
 * line. A write per line, or per event-loop turn, cost a thread-pool round trip each: a third of
 * a 304's CPU under load (bench:serve). And the processes of a cluster share one stdout, where
 * only writes of up to PIPE_BUF cannot interleave mid-line.
 */
export class BatchedDestination implements DestinationStream {
  private chunk = '';
  private timer: NodeJS.Timeout | undefined;

  /** `target` keeps the order of writes and never merges them beyond PIPE_BUF bytes. */
  constructor(private readonly target: FlushableTarget) {}

  /** Over stdout, through sonic-boom. */
  static stdout(): BatchedDestination {
    return new BatchedDestination(pino.destination({ dest: 1, sync: false, maxWrite: PIPE_BUF }));
  }

  write(line: string): void {
    // Characters, not bytes, while gathering (measuring bytes per line was a tenth of a 304);
    // `writeChunk` measures each chunk once.
    if (this.chunk.length > 0 && this.chunk.length + line.length > PIPE_BUF) {
      this.writeChunk(this.chunk);
      this.chunk = '';
    }
    this.chunk += line;
    if (!this.timer) {
      waiting.add(this);
      // Unreferenced: a waiting line must not keep the process alive; the exit hook writes it.
      this.timer = setTimeout(this.flush, FLUSH_MS).unref();
    }
  }

  /** Hands what waits to the target; with a callback (pino's `logger.flush`), once it is written. */
  readonly flush = (done?: (error?: Error) => void): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    waiting.delete(this);
    if (this.chunk.length > 0) this.writeChunk(this.chunk);
    this.chunk = '';
    if (done) {
      if (this.target.flush) this.target.flush(done);
      else done();
    }
  };

  private writeChunk(chunk: string): void {
    if (Buffer.byteLength(chunk) <= PIPE_BUF) return void this.target.write(chunk);
    // Non-ASCII text takes more bytes than characters: such a chunk is cut again, by bytes.
    let part = '';
    let bytes = 0;
    for (const line of chunk.split(/(?<=\n)/)) {
      const size = Buffer.byteLength(line);
      if (bytes > 0 && bytes + size > PIPE_BUF) {
        this.target.write(part);
        part = '';
        bytes = 0;
      }
      part += line;
      bytes += size;
    }
    if (bytes > 0) this.target.write(part);
  }

  /** At exit: what waits, and what the target holds, written before the process ends. */
  flushSync(): void {
    this.flush();
    this.target.flushSync?.();
  }
}

/** Destinations holding lines not yet handed to their target. */
const waiting = new Set<BatchedDestination>();
process.on('exit', () => {
  for (const destination of waiting) destination.flushSync();
});

/** What an operator looks for in each request's line. */
export interface AccessLine {
  method: string | undefined;
  host: string | undefined;
  url: string | undefined;
  status: number;
  bytes: number | undefined;
  ms: number;
  userAgent: string | undefined;
  ip: string | undefined;
}

/**
 * One JSON line per request, after the response, from both the in-memory lane and Fastify. The
 * logger writes asynchronously (see public.app.ts), so a line costs its serialisation only.
 * Given the logger's destination, a request's line is made here, in the very bytes pino makes
 * (public.logger.spec compares them), and handed to the destination: pino's generic path (its
 * argument handling, a key loop with a type switch per field, the object spread for `ms`) was
 * most of a line's cost. A logger with a mixin (tracing on) or another format goes through pino.
 */
export class AccessLog {
  private readonly enabled: boolean;
  /** Where a request's line goes directly, and the logger's bindings (`,"app":"public","pid":1`). */
  private readonly direct: { destination: DestinationStream; bindings: string } | undefined;

  constructor(
    private readonly logger: Logger,
    destination?: DestinationStream,
  ) {
    this.enabled = logger.isLevelEnabled('info');
    const internals = logger as unknown as Record<symbol, unknown>;
    const bindings = internals[pino.symbols.chindingsSym];
    this.direct =
      destination && typeof bindings === 'string' && internals[pino.symbols.mixinSym] === undefined
        ? { destination, bindings }
        : undefined;
  }

  write(line: AccessLine, error?: Error | null): void {
    if (error) this.logger.error({ ...line, ms: round(line.ms), err: error }, 'request failed');
    else if (!this.enabled) return;
    else if (this.direct) this.direct.destination.write(this.line(line, this.direct.bindings));
    else this.logger.info({ ...line, ms: round(line.ms) }, 'request');
  }

  /** pino's line for `logger.info({ ...line, ms }, 'request')`: fields in order, undefined ones left out. */
  private line(line: AccessLine, bindings: string): string {
    let text = `{"level":"info","time":${Date.now()}${bindings}`;
    if (line.method !== undefined) text += `,"method":${quote(line.method)}`;
    if (line.host !== undefined) text += `,"host":${quote(line.host)}`;
    if (line.url !== undefined) text += `,"url":${quote(line.url)}`;
    text += `,"status":${json(line.status)}`;
    if (line.bytes !== undefined) text += `,"bytes":${json(line.bytes)}`;
    text += `,"ms":${json(round(line.ms))}`;
    if (line.userAgent !== undefined) text += `,"userAgent":${quote(line.userAgent)}`;
    if (line.ip !== undefined) text += `,"ip":${quote(line.ip)}`;
    return `${text},"msg":"request"}\n`;
  }
}

/** What JSON.stringify would escape in a string: control characters, `"`, `\\`, lone surrogates. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** A JSON string; header values rarely need escaping, so most are quoted as they are. */
function quote(value: string): string {
  return ESCAPED.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/** A JSON number, as pino writes one (null when not finite). */
function json(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** Fastify's request lines go to the access log, one per request: Fastify's default writes two. */
export class AccessLogController extends LogController {
  constructor(
    private readonly accessLog: AccessLog,
    private readonly tally: ResponseTally,
    private readonly crawls?: CrawlTally,
  ) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // Not answered from memory: the site or the file's bytes were loaded first.
    this.tally.count(reply.statusCode, false);
    const length = reply.getHeader('content-length');
    const bytes = length === undefined ? undefined : Number(length);
    const userAgent = request.headers['user-agent'];
    this.crawls?.record({
      host: request.headers.host,
      url: request.url,
      userAgent,
      address: request.ip,
      status: reply.statusCode,
      bytes,
      at: Date.now(),
    });
    this.accessLog.write(
      {
        method: request.method,
        host: request.headers.host,
        url: request.url,
        status: reply.statusCode,
        bytes,
        ms: reply.elapsedTime,
        userAgent,
        ip: request.ip,
      },
      error,
    );
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

  private write(
    level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace',
    message: unknown,
    rest: unknown[],
  ): void {
    const context = rest.length > 0 && typeof rest.at(-1) === 'string' ? (rest.pop() as string) : undefined;
    const fields = { context, ...(rest.length > 0 ? { details: rest } : {}) };
    if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'string') this.logger[level](fields, message);
    else this.logger[level]({ ...fields, data: message });
  }
}
