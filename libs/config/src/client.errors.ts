// What a server answers when Node itself refuses a request before any handler sees it (a header
// block over the limit, a malformed request line, a request that took too long to arrive).
// Fastify's default writes JSON without `Connection: close` and then resets the socket, so a
// keep-alive client's next requests fail; here the refusal is in the app's own error shape, says
// it closes the connection, and closes it gently.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** How long the rest of a refused request is read and dropped before the socket closes. */
const LINGER_MS = 2_000;

export interface ClientErrorBody {
  contentType: string;
  body(status: number, code: string, message: string): string;
}

/** Statuses and codes for Node's parser errors. */
function classify(error: NodeJS.ErrnoException): [number, string, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return [431, 'HEADERS_TOO_LARGE', 'the request line and headers are too large'];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'REQUEST_TIMEOUT', 'the request did not arrive in time'];
  return [400, 'MALFORMED_REQUEST', 'the request is not valid HTTP/1.1'];
}

/** For fastify's `clientErrorHandler` option. */
export function clientErrorHandler(format: ClientErrorBody): (error: NodeJS.ErrnoException, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, code, message] = classify(error);
    const body = format.body(status, code, message);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: ${format.contentType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/** RFC 9112 §3.2: a request with more than one Host header gets 400. Node keeps the first. */
export function hasDuplicateHost(rawHeaders: readonly string[]): boolean {
  let seen = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      if (seen) return true;
      seen = true;
    }
  }
  return false;
}
