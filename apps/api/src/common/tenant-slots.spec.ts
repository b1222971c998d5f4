import { describe, expect, it } from 'vitest';
import { TenantSlots } from './tenant-slots';

describe('TenantSlots', () => {
  it('refuses past the total, whichever tenant asks, and takes requests again once one ends', async () => {
    const slots = new TenantSlots({
      perTenant: 2,
      total: 2,
      code: 'BUSY',
      what: 'things',
      perTenantSetting: 'PER_TENANT',
      totalSetting: 'TOTAL',
    });
    const gates: (() => void)[] = [];
    const held = () => new Promise<void>((resolve) => gates.push(resolve));
    const first = slots.run('a', held);
    const second = slots.run('b', held);
    await expect(slots.run('c', async () => 'third')).rejects.toMatchObject({
      kind: 'rate_limited',
      code: 'BUSY',
      message: expect.stringContaining('TOTAL'),
    });
    gates.shift()?.();
    await first;
    await expect(slots.run('c', async () => 'after one ended')).resolves.toBe('after one ended');
    gates.shift()?.();
    await second;
  });
});
