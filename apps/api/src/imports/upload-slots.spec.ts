import { describe, expect, it } from 'vitest';
import { UploadSlots } from './upload-slots';

describe('UploadSlots', () => {
  it('refuses a tenant past its share while others still get theirs, and frees a slot when an upload ends', async () => {
    const slots = new UploadSlots(2);
    const gates: (() => void)[] = [];
    const held = () => new Promise<void>((resolve) => gates.push(resolve));
    const first = slots.run('a', held);
    const second = slots.run('a', held);
    await expect(slots.run('a', async () => 'third')).rejects.toMatchObject({
      kind: 'rate_limited',
      code: 'UPLOADS_BUSY',
    });
    await expect(slots.run('b', async () => 'other tenant')).resolves.toBe('other tenant');
    gates.shift()?.();
    await first;
    await expect(slots.run('a', async () => 'after one ended')).resolves.toBe('after one ended');
    gates.shift()?.();
    await second;
  });

  it('frees the slot of an upload that fails', async () => {
    const slots = new UploadSlots(1);
    await expect(slots.run('a', async () => Promise.reject(new Error('client went away')))).rejects.toThrow(
      'client went away',
    );
    await expect(slots.run('a', async () => 'next')).resolves.toBe('next');
  });
});
