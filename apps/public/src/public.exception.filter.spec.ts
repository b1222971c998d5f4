import { NotFoundException, type ArgumentsHost } from '@nestjs/common';
import { describe, expect, it, vi } from 'vitest';
import { PublicExceptionFilter } from './public.exception.filter';

/** What the filter sends through a Fastify reply, recorded. */
function answer(exception: unknown) {
  const sent = { status: 0, headers: {} as Record<string, string>, body: '' };
  const reply = {
    sent: false,
    header: (name: string, value: string) => ((sent.headers[name] = value), reply),
    status: (status: number) => ((sent.status = status), reply),
    type: (type: string) => ((sent.headers['content-type'] = type), reply),
    send: (body: string) => ((sent.body = body), reply),
  };
  const request = { headers: { host: 'example.com' }, url: '/sitemap.xml', log: { error: vi.fn(), warn: vi.fn() } };
  const host = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
  } as unknown as ArgumentsHost;
  new PublicExceptionFilter().catch(exception, host);
  return { ...sent, logged: request.log };
}

describe('PublicExceptionFilter', () => {
  it('tells crawlers to come back (503, Retry-After) while the database is unreachable', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    for (const error of [refused, shutdown, new Error('boom', { cause: refused })]) {
      const sent = answer(error);
      expect(sent.status).toBe(503);
      expect(sent.headers['retry-after']).toBe('5');
      expect(sent.body).toBe('Service Unavailable\n');
      expect(sent.logged.error).not.toHaveBeenCalled();
    }
  });

  it('answers other failures with a bare, logged 500, and keeps a client error its status', () => {
    const failed = answer(new Error('a listed file is missing'));
    expect(failed).toMatchObject({ status: 500, body: 'Internal Server Error\n' });
    expect(failed.headers['retry-after']).toBeUndefined();
    expect(failed.logged.error).toHaveBeenCalledOnce();
    expect(answer(new NotFoundException()).status).toBe(404);
  });
});
