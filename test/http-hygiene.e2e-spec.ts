// What Node and Fastify answer on their own, before any handler: a header block over the limit,
// a malformed request, two Host headers. Each in the server's error shape (JSON on the API, text
// on the public server), with `Connection: close`, and a client that keeps connections alive is
// not left with a reset one.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from './support/platform';

/** Writes raw bytes on a fresh connection; resolves with everything the server sent before closing. */
function rawExchange(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', (error: NodeJS.ErrnoException) => (received ? resolve(received) : reject(error)));
    socket.setTimeout(10_000, () => reject(new Error(`no close within 10 s; got ${JSON.stringify(received)}`)));
  });
}

const headOf = (answer: string) => answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase();
const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

describe('HTTP hygiene', () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startPlatform({}, { worker: false });
  });
  afterAll(() => platform?.close());

  const servers = () => [
    {
      name: 'api',
      url: platform.apiUrl,
      path: '/health',
      body431: JSON.stringify({
        error: { code: 'HEADERS_TOO_LARGE', message: 'the request line and headers are too large', details: [] },
      }),
    },
    { name: 'public', url: platform.publicUrl, path: '/robots.txt', body431: 'Request Header Fields Too Large\n' },
  ];

  it('answers a 16 KiB header block with 431 in the error shape and Connection: close', async () => {
    for (const server of servers()) {
      const answer = await rawExchange(
        server.url,
        `GET ${server.path} HTTP/1.1\r\nHost: a.example.com\r\nX-Big: ${'x'.repeat(16 * 1024)}\r\n\r\n`,
      );
      expect(answer.startsWith('HTTP/1.1 431 '), `${server.name}: ${answer.slice(0, 200)}`).toBe(true);
      expect(headOf(answer)).toContain('connection: close');
      expect(bodyOf(answer)).toBe(server.body431);
    }
  });

  it('keeps a keep-alive client working after a 431', async () => {
    for (const server of servers()) {
      const big = await fetch(`${server.url}${server.path}`, { headers: { 'x-big': 'x'.repeat(16 * 1024) } });
      expect(big.status).toBe(431);
      await big.arrayBuffer();
      for (let i = 0; i < 5; i++) {
        const next = await fetch(`${server.url}${server.path}`, { headers: { host: 'a.example.com' } });
        expect(next.status, server.name).toBeLessThan(500);
        await next.arrayBuffer();
      }
    }
  });

  it('answers a malformed request line with 400 and closes', async () => {
    for (const server of servers()) {
      const answer = await rawExchange(server.url, 'GET / HTTP/9.9 nonsense\r\n\r\n');
      expect(answer.startsWith('HTTP/1.1 400 '), server.name).toBe(true);
      expect(headOf(answer)).toContain('connection: close');
    }
  });

  it('refuses two Host headers with 400 (RFC 9112 §3.2)', async () => {
    for (const server of servers()) {
      const answer = await rawExchange(
        server.url,
        `GET ${server.path} HTTP/1.1\r\nHost: a.example.com\r\nHost: b.example.com\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.startsWith('HTTP/1.1 400 '), `${server.name}: ${answer.slice(0, 200)}`).toBe(true);
      expect(headOf(answer)).toContain('connection: close');
    }
    const api = await rawExchange(platform.apiUrl, 'GET /health HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n');
    expect(JSON.parse(bodyOf(api))).toEqual({
      error: { code: 'MALFORMED_REQUEST', message: 'more than one Host header', details: [] },
    });
  });
});
