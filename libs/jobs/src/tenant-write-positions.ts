// Each tenant's last write position on the primary (an LSN), in Redis so every API process
// routes the tenant's reads alike (see ReadRouter in libs/data). One key per tenant, so it works
// on a Redis Cluster; raised by a script, so a slower, earlier write never lowers it.
import type { TenantWritePositions } from '@sitemaps/data';
import type { RedisConnection } from './connection';

/** 16 hex digits: fixed width, so the script compares positions as strings. */
const WIDTH = 16;

const RAISE = `
local current = redis.call('GET', KEYS[1])
if not current or current < ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;

export class RedisTenantWritePositions implements TenantWritePositions {
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    /**
     * How long a position is kept after the tenant's last write. A replica lagging further
     * behind than this would serve a write older than that as not yet made.
     */
    private readonly ttlMs = 60 * 60_000,
  ) {}

  async get(tenantId: string): Promise<bigint | null> {
    const value = await this.redis.get(this.key(tenantId));
    return value === null ? null : BigInt(`0x${value}`);
  }

  async raise(tenantId: string, lsn: bigint): Promise<void> {
    await this.redis.eval(RAISE, 1, this.key(tenantId), lsn.toString(16).padStart(WIDTH, '0'), String(this.ttlMs));
  }

  private key(tenantId: string): string {
    return `${this.prefix}:write-lsn:${tenantId}`;
  }
}
