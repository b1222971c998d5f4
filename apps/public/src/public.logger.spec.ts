import { Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AccessLogController } from './public.logger';

describe('access log', () => {
  it('writes one JSON line per request, after the response, with what an operator looks for', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const log = pino({ base: { app: 'public' } }, sink);
    const request = { method: 'GET', url: '/sitemap.xml', ip: '192.0.2.7', headers: { host: 'www.example.com', 'user-agent': 'Googlebot/2.1' } };
    const reply = { statusCode: 304, elapsedTime: 0.4321, log, getHeader: () => undefined };
    const controller = new AccessLogController();

    controller.incomingRequest();
    expect(lines).toEqual([]);
    controller.requestCompleted(null, request as unknown as FastifyRequest, reply as unknown as FastifyReply);
    controller.requestCompleted(new Error('socket hang up'), request as unknown as FastifyRequest, { ...reply, statusCode: 500 } as unknown as FastifyReply);

    const [ok, failed] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(ok).toMatchObject({ level: 30, msg: 'request', method: 'GET', host: 'www.example.com', url: '/sitemap.xml', status: 304, ms: 0.4, userAgent: 'Googlebot/2.1', ip: '192.0.2.7' });
    expect(failed).toMatchObject({ level: 50, msg: 'request failed', status: 500, err: { message: 'socket hang up' } });
  });
});
