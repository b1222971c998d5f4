import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrl, FetchRefusedError, networkFailure } from './safe-fetch';

describe('fetchUrl', () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/away') return void response.writeHead(302, { location: 'http://other.example:1/x' }).end();
      if (request.url === '/here') return void response.writeHead(302, { location: '/there' }).end();
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const policy = (over: object = {}) => ({
    allowPrivateAddresses: true,
    maxRedirects: 3,
    requestTimeoutMs: 5_000,
    resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    ...over,
  });

  it('refuses a private address without naming it; the detail, for the log, does', async () => {
    const refused = await fetchUrl(
      'http://vm.example/x',
      policy({ allowPrivateAddresses: false, resolve: async () => [{ address: '10.20.30.40', family: 4 }] }),
      AbortSignal.timeout(5_000),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FetchRefusedError);
    expect(refused).toMatchObject({ code: 'ADDRESS_REFUSED', detail: expect.stringContaining('10.20.30.40') });
    expect((refused as Error).message).not.toContain('10.20.30.40');
  });

  it('with sameHostRedirects, follows a redirect on the host and refuses one to another host', async () => {
    const same = await fetchUrl(
      `http://files.example:${port}/here`,
      policy({ sameHostRedirects: true }),
      AbortSignal.timeout(5_000),
    );
    expect(same.url).toBe(`http://files.example:${port}/there`);
    same.body.resume();
    await expect(
      fetchUrl(`http://files.example:${port}/away`, policy({ sameHostRedirects: true }), AbortSignal.timeout(5_000)),
    ).rejects.toMatchObject({ code: 'REDIRECT_REFUSED' });
  });

  it("says why a connection failed without the address Node's message names", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.20.30.40:443'), { code: 'ECONNREFUSED' });
    expect(networkFailure(refused)).toBe('the connection was refused');
    expect(networkFailure(new Error('Hostname/IP does not match: IP: 10.1.2.3 and [fd00::1]:443'))).not.toMatch(
      /10\.1\.2\.3|fd00/,
    );
  });
});
