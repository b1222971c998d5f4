import net from 'node:net';
import { ReplyError } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisConnection } from './connection';
import { isRedisUnavailable } from './redis-unavailable';

/** A port nothing listens on: one the system gave, closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('isRedisUnavailable', () => {
  it("knows the error a producer's command gets when nothing listens (a stopped server)", async () => {
    const redis = createRedisConnection(
      { redisUrl: `redis://127.0.0.1:${await closedPort()}`, redisCluster: undefined },
      'producer',
    );
    redis.on('error', () => undefined);
    const error = await redis.get('x').catch((caught: unknown) => caught);
    redis.disconnect();
    expect(isRedisUnavailable(error)).toBe(true);
  });

  it("knows a cluster's failover replies and ioredis's own messages, through causes", () => {
    expect(isRedisUnavailable(new ReplyError('CLUSTERDOWN The cluster is down'))).toBe(true);
    expect(isRedisUnavailable(new ReplyError('TRYAGAIN Multiple keys request during rehashing of slot'))).toBe(true);
    expect(
      isRedisUnavailable(new Error('Too many Cluster redirections. Last error: Error: Connection is closed.')),
    ).toBe(true);
    expect(isRedisUnavailable(new Error('wrapped', { cause: new Error('Connection is closed.') }))).toBe(true);
  });

  it('leaves every other error alone', () => {
    expect(isRedisUnavailable(new ReplyError('ERR wrong number of arguments'))).toBe(false);
    expect(isRedisUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isRedisUnavailable('CLUSTERDOWN')).toBe(false);
  });
});
