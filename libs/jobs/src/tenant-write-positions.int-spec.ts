import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl, uniqueQueuePrefix } from '@sitemaps/testing';
import { RedisTenantWritePositions } from './tenant-write-positions';

describe('RedisTenantWritePositions', () => {
  const redis = new Redis(testRedisUrl());
  const prefix = uniqueQueuePrefix('write-lsn');
  afterAll(async () => {
    await redis.del(...['t1', 't3'].map((tenant) => `${prefix}:write-lsn:${tenant}`));
    redis.disconnect();
  });

  it('keeps each tenant’s highest position: an earlier write recorded late never lowers it', async () => {
    const positions = new RedisTenantWritePositions(redis, prefix);
    expect(await positions.get('t1')).toBeNull();
    await positions.raise('t1', 0x1_0000_0010n);
    await positions.raise('t1', 0xffff_fff0n); // lower, across the 4 GB boundary
    expect(await positions.get('t1')).toBe(0x1_0000_0010n);
    await positions.raise('t1', 0x2_0000_0000n);
    expect(await positions.get('t1')).toBe(0x2_0000_0000n);
    expect(await positions.get('t2')).toBeNull();
  });

  it('forgets a tenant’s position after its time to live', async () => {
    const positions = new RedisTenantWritePositions(redis, prefix, 60_000);
    await positions.raise('t3', 5n);
    const ttl = await redis.pttl(`${prefix}:write-lsn:t3`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});
