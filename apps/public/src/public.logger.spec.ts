import { Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, ResponseTally } from '@sitemaps/observability';
import { AccessLog, AccessLogController, BatchedDestination, type AccessLine } from './public.logger';

describe('access log', () => {
  it('writes one JSON line per request, after the response, with what an operator looks for', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const log = pino(loggerOptions('public', 'info'), sink);
    const request = {
      method: 'GET',
      url: '/sitemap.xml',
      ip: '192.0.2.7',
      headers: { host: 'www.example.com', 'user-agent': 'Googlebot/2.1' },
    };
    const reply = { statusCode: 304, elapsedTime: 0.4321, getHeader: () => undefined };
    const tally = new ResponseTally();
    const controller = new AccessLogController(new AccessLog(log), tally);

    controller.incomingRequest();
    expect(lines).toEqual([]);
    controller.requestCompleted(null, request as unknown as FastifyRequest, reply as unknown as FastifyReply);
    controller.requestCompleted(
      new Error('socket hang up'),
      request as unknown as FastifyRequest,
      { ...reply, statusCode: 500 } as unknown as FastifyReply,
    );

    const [ok, failed] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(ok).toMatchObject({
      level: 'info',
      app: 'public',
      msg: 'request',
      method: 'GET',
      host: 'www.example.com',
      url: '/sitemap.xml',
      status: 304,
      ms: 0.4,
      userAgent: 'Googlebot/2.1',
      ip: '192.0.2.7',
    });
    expect(failed).toMatchObject({
      level: 'error',
      msg: 'request failed',
      status: 500,
      err: { message: 'socket hang up' },
    });
    // Both went through Fastify: cache misses, counted by status.
    const counted: [string, number, number][] = [];
    tally.drain((cache, status, count) => counted.push([cache, status, count]));
    expect(counted).toEqual([
      ['miss', 304, 1],
      ['miss', 500, 1],
    ]);
  });

  it('writes request lines at info only, and failures at any level that shows errors', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const accessLog = new AccessLog(pino({ level: 'warn' }, sink));
    const line = {
      method: 'GET',
      host: 'www.example.com',
      url: '/robots.txt',
      status: 200,
      bytes: 42,
      ms: 0.05,
      userAgent: undefined,
      ip: '127.0.0.1',
    };
    accessLog.write(line);
    accessLog.write({ ...line, status: 500 }, new Error('boom'));
    expect(lines.map((text) => JSON.parse(text) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ msg: 'request failed', status: 500, bytes: 42 }),
    ]);
  });

  it("makes a request's line in the very bytes pino makes, whatever the fields hold", () => {
    const options = { ...loggerOptions('public', 'info'), redact: undefined };
    const made = (accessLog: (lines: string[]) => AccessLog, line: AccessLine) => {
      const lines: string[] = [];
      accessLog(lines).write(line);
      // The time is the clock's when each line is made.
      return lines.map((text) => text.replace(/"time":\d+/, '"time":0'));
    };
    const viaPino = (lines: string[]) => new AccessLog(pino(options, { write: (text: string) => lines.push(text) }));
    const direct = (lines: string[]) => {
      const destination = { write: (text: string) => lines.push(text) };
      return new AccessLog(pino(options, destination), destination);
    };
    const lines: AccessLine[] = [
      {
        method: 'GET',
        host: 'www.example.com',
        url: '/sitemap-1.xml.gz',
        status: 304,
        bytes: undefined,
        ms: 0.04321,
        userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
        ip: '66.249.66.1',
      },
      // What a client can put in a header, as node:http hands it over (latin1): quotes, escapes, controls.
      {
        method: 'HEAD',
        host: 'a"b\\c',
        url: '/robots.txt?q="\u0001\t',
        status: 200,
        bytes: 42,
        ms: 12.35,
        userAgent: `${'long '.repeat(30)}"bot" é\u00ff\u007f`,
        ip: undefined,
      },
      { method: undefined, host: undefined, url: undefined, status: 400, bytes: 0, ms: 0, userAgent: '', ip: '' },
    ];
    for (const line of lines) {
      const expected = made(viaPino, line);
      expect(expected).toHaveLength(1);
      expect(made(direct, line)).toEqual(expected);
    }
  });

  it('batches lines into writes of whole lines of at most 4 KiB, and writes out what waits on flush', () => {
    const writes: string[] = [];
    const destination = new BatchedDestination({ write: (chunk: string) => writes.push(chunk) });
    const lines = Array.from(
      { length: 100 },
      (_, i) => `{"n":${i},"userAgent":"${i % 7 === 0 ? 'Ünïcödé-bot '.repeat(40) : 'Googlebot/2.1'}"}\n`,
    );
    for (const line of lines) destination.write(line);
    expect(writes.length).toBeGreaterThan(0);
    destination.flush();
    expect(writes.join('')).toBe(lines.join(''));
    for (const chunk of writes) {
      expect(Buffer.byteLength(chunk)).toBeLessThanOrEqual(4_096);
      expect(chunk.endsWith('\n')).toBe(true);
    }
    expect(writes.length).toBeLessThan(lines.length / 2);
  });
});
