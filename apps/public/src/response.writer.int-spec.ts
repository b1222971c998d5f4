// ResponseWriter on real node:http servers: the bytes on the wire are those writeHead + end gives,
// over keep-alive, pipelining, HEAD, Connection: close and HTTP/1.0, compared byte for byte.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicResponse } from './public.service';
import { ResponseWriter } from './response.writer';

const KEEP_ALIVE_MS = 30_000;

/** Answers as the lane shares them: one header object per file, reused across requests. */
const validators = {
  etag: '"6d63738daff2a1aa775eaba0cfc43213ad418012150f525b787ec9c3ce6ad5b1"',
  'last-modified': 'Sat, 19 Sep 2026 10:00:00 GMT',
  'cache-control': 'public, max-age=300',
  'x-robots-tag': 'noindex',
};
const robots = 'User-agent: *\nAllow: /\n\nSitemap: https://www.example.com/sitemap.xml\n';
const index = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex/>\n');
/** Bytes of every value (gzip), below and above the size that goes out joined to the head as latin1 text. */
const gzipped = gzipSync(index);
const large = Buffer.from(Array.from({ length: 9_000 }, (_, i) => (i * 131) % 256));
const ANSWERS: Record<string, PublicResponse> = {
  '/304': { status: 304, headers: validators },
  '/robots.txt': {
    status: 200,
    headers: { ...validators, 'content-type': 'text/plain; charset=utf-8', 'content-length': String(robots.length) },
    body: robots,
  },
  '/sitemap.xml': {
    status: 200,
    headers: { ...validators, 'content-type': 'application/xml', 'content-length': String(index.length) },
    body: index,
  },
  '/sitemap.xml.gz': {
    status: 200,
    headers: { ...validators, 'content-type': 'application/gzip', 'content-length': String(gzipped.length) },
    body: gzipped,
  },
  '/large': {
    status: 200,
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(large.length) },
    body: large,
  },
  // Cases writeHead decides: no stated length (chunked), and an answer that closes the connection.
  '/unsized': { status: 200, headers: { 'content-type': 'text/plain' }, body: 'no length\n' },
  '/close': {
    status: 400,
    headers: { 'content-type': 'text/plain', 'content-length': '12', connection: 'close' },
    body: 'Bad Request\n',
  },
};

/** Heads serialised by writeHead on the server under test. */
let writeHeads = 0;
function counted(response: ServerResponse): ServerResponse {
  const writeHead = response.writeHead;
  return Object.assign(response, {
    writeHead(this: ServerResponse, ...args: unknown[]): unknown {
      writeHeads++;
      return Reflect.apply(writeHead, this, args);
    },
  });
}

function listen(write: (request: IncomingMessage, response: ServerResponse, answer: PublicResponse) => void) {
  const server = http.createServer((request, response) =>
    write(request, response, ANSWERS[request.url ?? ''] ?? { status: 404, headers: { 'content-length': '0' } }),
  );
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Everything the server sends on one connection for `requests` (written at once), until it closes. */
function transcript(server: http.Server, requests: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(requests));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

/** Each request's answer in turn, on one connection: a client that waits for each before the next. */
async function oneByOne(server: http.Server, requests: string[]): Promise<string[]> {
  const { port } = server.address() as AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  socket.setEncoding('latin1');
  let buffered = '';
  const answers: string[] = [];
  try {
    for (const request of requests) {
      socket.write(request);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        const length = end < 0 ? null : Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (end >= 0 && length !== null && buffered.length >= end + 4 + length) {
          answers.push(buffered.slice(0, end + 4 + length));
          buffered = buffered.slice(end + 4 + length);
          break;
        }
        buffered += await new Promise<string>((resolve, reject) => {
          socket.once('data', resolve);
          socket.once('error', reject);
        });
      }
    }
  } finally {
    socket.destroy();
  }
  return answers;
}

const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: www.example.com\r\n${headers}\r\n`;
/** Dates differ by the second the answer was written in, not by who wrote it. */
const undated = (text: string) => text.replace(/\r\nDate: [^\r]+\r\n/g, '\r\nDate: -\r\n');

describe('ResponseWriter', () => {
  let before: http.Server;
  let after: http.Server;
  const writer = new ResponseWriter({ keepAliveTimeoutMs: KEEP_ALIVE_MS });

  beforeAll(async () => {
    before = await listen((_request, response, answer) => {
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    });
    after = await listen((request, response, answer) => writer.write(request, counted(response), answer));
  });
  afterAll(() => {
    before?.close();
    after?.close();
  });

  const sequences: [string, string][] = [
    [
      'a 304, a text and an index on one connection, then Connection: close',
      [
        get('/304', 'If-None-Match: "x"\r\n'),
        get('/robots.txt'),
        get('/sitemap.xml', 'Accept-Encoding: gzip\r\n'),
        get('/304', 'Connection: close\r\n'),
      ].join(''),
    ],
    [
      'HEAD, whose answer has the length and no body',
      `HEAD /robots.txt HTTP/1.1\r\nHost: a\r\n\r\n${get('/sitemap.xml', 'Connection: close\r\n')}`,
    ],
    [
      'HEAD of the 304 and of the index',
      `HEAD /304 HTTP/1.1\r\nHost: a\r\n\r\nHEAD /sitemap.xml HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`,
    ],
    [
      'Connection: close on the first request: nothing after it is answered',
      get('/robots.txt', 'Connection: close\r\n') + get('/304'),
    ],
    [
      'HTTP/1.0, with and without keep-alive',
      'GET /robots.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /304 HTTP/1.0\r\n\r\n',
    ],
    ['an answer of unstated length, then one that closes', get('/unsized') + get('/close') + get('/304')],
    [
      'binary bodies, small (joined to the head) and large, over keep-alive and HTTP/1.0',
      get('/sitemap.xml.gz') +
        get('/large') +
        'GET /sitemap.xml.gz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n' +
        get('/sitemap.xml.gz', 'Connection: close\r\n'),
    ],
  ];

  it.each(sequences)('writes the bytes writeHead writes: %s', async (_name, requests) => {
    const [old, fast] = await Promise.all([transcript(before, requests), transcript(after, requests)]);
    expect(undated(fast)).toBe(undated(old));
    expect(fast).toMatch(/^HTTP\/1\.1 /);
  });

  it('answers pipelined requests in order, each with its own head', async () => {
    const requests = Array.from({ length: 8 }, (_, i) => get(i % 2 ? '/robots.txt' : '/304')).join('');
    const text = await transcript(after, `${requests}${get('/sitemap.xml', 'Connection: close\r\n')}`);
    const statuses = [...text.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((match) => Number(match[1]));
    expect(statuses).toEqual([304, 200, 304, 200, 304, 200, 304, 200, 200]);
    expect(text.match(/^Connection: keep-alive\r\nKeep-Alive: timeout=30\r\n/gm)).toHaveLength(8);
    expect(text).toMatch(/Connection: close\r\n\r\n<\?xml[^]*<sitemapindex\/>\n$/);
  });

  it('keeps a connection open across requests, with a Date of the second it answers in', async () => {
    const answers = await oneByOne(after, [get('/304'), get('/robots.txt'), get('/sitemap.xml'), get('/304')]);
    expect(answers.map((answer) => answer.split('\r\n')[0])).toEqual([
      'HTTP/1.1 304 Not Modified',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 304 Not Modified',
    ]);
    for (const answer of answers) {
      const date = Date.parse(/\r\nDate: ([^\r]+)\r\n/.exec(answer)?.[1] ?? '');
      expect(Math.abs(date - Date.now())).toBeLessThan(5_000);
    }
  });

  it('serialises a shared answer once: later requests skip writeHead', async () => {
    await transcript(after, get('/304') + get('/robots.txt', 'Connection: close\r\n'));
    const heads = writeHeads;
    await transcript(
      after,
      get('/304') + get('/304') + get('/robots.txt') + get('/sitemap.xml', 'Connection: close\r\n'),
    );
    expect(writeHeads).toBe(heads);
    // writeHead still answers what it alone decides.
    await transcript(after, get('/unsized', 'Connection: close\r\n'));
    expect(writeHeads).toBe(heads + 1);
  });
});
