// Writes the in-memory lane's answers with a head serialised once per answer instead of once
// per request. `writeHead` validates and serialises every header of every answer (_storeHeader),
// a measurable share of a 304's CPU through node:http; the lane's answers are shared header
// objects (built once per file and snapshot), so their lines can be kept. The head is then handed
// to node:http as `writeHead` leaves it (`_header`), and `end` sends it: keep-alive, pipelining,
// the keep-alive timer and 'finish' stay node:http's. The bytes are those `writeHead` writes
// (response.writer.int-spec compares them on the wire); any case whose rules this does not
// repeat goes to `writeHead`. A small Buffer body goes out as latin1 text (see JOINED_BODY_BYTES).
import { STATUS_CODES, validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { PublicResponse } from './public.service';

/**
 * A Buffer body up to this size is handed to `end` as latin1 text (one character per byte: the
 * same bytes on the wire), which node:http joins to the head in one socket write. A Buffer goes
 * out beside the head as a second chunk (the socket's writev path), which cost 2-4 µs of CPU per
 * answer (bench:serve, index 200: 23.1 -> 20.6 µs). Past a few KiB copying the body costs more.
 */
const JOINED_BODY_BYTES = 4_096;

/** What `writeHead` leaves on node:http's response (lib/_http_outgoing.js, _storeHeader). */
interface StoredHead {
  _header: string | null;
  _headerSent: boolean;
  /** The connection closes once this response is written. */
  _last: boolean;
  /** Set by node:http when a request beyond `maxRequestsPerSocket` arrives: it answers `Connection: close`. */
  maxRequestsOnConnectionReached?: boolean;
}

/** An answer's status line and header lines, and what decides how node:http ends the head. */
interface Lines {
  status: number;
  text: string;
  /** Whether node:http may answer without looking at the body: a length is stated, or none is sent. */
  plain: boolean;
  /** The whole kept-alive head of the current second, made by its first request. */
  dated: string;
  second: number;
}

export class ResponseWriter {
  /** Per shared header object: its lines. Answers made per request (a 206, a 301) are dropped with them. */
  private readonly lines = new WeakMap<Readonly<Record<string, string>>, Lines>();
  /** Per small body (a cached file's bytes, shared across requests): its latin1 text. */
  private readonly texts = new WeakMap<Buffer, string>();
  /** `Date` is to the second, like node:http's own (which caches it per second too). */
  private second = -1;
  private date = '';
  /** `Connection` and `Keep-Alive` as node:http writes them for this server's settings. */
  private readonly keepAlive: string;

  constructor(options: { keepAliveTimeoutMs: number; maxRequestsPerSocket?: number }) {
    const max = (options.maxRequestsPerSocket ?? 0) > 0 ? `, max=${options.maxRequestsPerSocket}` : '';
    this.keepAlive =
      options.keepAliveTimeoutMs > 0
        ? `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(options.keepAliveTimeoutMs / 1000)}${max}\r\n`
        : 'Connection: keep-alive\r\n';
  }

  write(request: IncomingMessage, response: ServerResponse, answer: PublicResponse): void {
    const lines = this.linesOf(answer);
    const head = response as unknown as StoredHead;
    const bodiless = answer.status === 304 || answer.status === 204 || request.method === 'HEAD';
    // node:http's rules for HTTP/1.1 with a stated length or no body; the rest (HTTP/1.0, a body
    // of unstated length, a `Connection` of the answer's own) is writeHead's to decide.
    if (
      lines === undefined ||
      !(lines.plain || bodiless) ||
      request.httpVersionMajor !== 1 ||
      request.httpVersionMinor !== 1 ||
      head.maxRequestsOnConnectionReached === true ||
      head._header
    ) {
      response.writeHead(answer.status, answer.headers);
      this.end(response, answer.body);
      return;
    }
    const close = !response.shouldKeepAlive;
    const date = this.now();
    if (close) head._header = `${lines.text}Date: ${date}\r\nConnection: close\r\n\r\n`;
    else {
      if (lines.second !== this.second) {
        lines.dated = `${lines.text}Date: ${date}\r\n${this.keepAlive}\r\n`;
        lines.second = this.second;
      }
      head._header = lines.dated;
    }
    head._headerSent = false;
    if (close) head._last = true;
    response.statusCode = answer.status;
    if (bodiless) response.end();
    else this.end(response, answer.body);
  }

  private end(response: ServerResponse, body: Buffer | string | undefined): void {
    if (body === undefined || typeof body === 'string' || body.length > JOINED_BODY_BYTES) {
      response.end(body);
      return;
    }
    let text = this.texts.get(body);
    if (text === undefined) this.texts.set(body, (text = body.toString('latin1')));
    response.end(text, 'latin1');
  }

  /** The answer's lines, made once per header object; undefined when writeHead must see them. */
  private linesOf(answer: PublicResponse): Lines | undefined {
    const cached = this.lines.get(answer.headers);
    if (cached?.status === answer.status) return cached;
    let text = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'unknown'}\r\n`;
    let plain = false;
    for (const [name, value] of Object.entries(answer.headers)) {
      // The checks writeHead makes, once: a bad name or value throws as it would there.
      validateHeaderName(name);
      validateHeaderValue(name, value);
      const lower = name.toLowerCase();
      // These change how node:http frames the message or keeps the connection.
      if (lower === 'connection' || lower === 'transfer-encoding' || lower === 'date' || lower === 'trailer')
        return undefined;
      if (lower === 'content-length') plain = true;
      text += `${name}: ${value}\r\n`;
    }
    const lines = { status: answer.status, text, plain, dated: '', second: -1 };
    this.lines.set(answer.headers, lines);
    return lines;
  }

  private now(): string {
    const now = Date.now();
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.date = new Date(second * 1000).toUTCString();
    }
    return this.date;
  }
}
