import { describe, expect, it } from 'vitest';
import { SchemaLanes, SMALL_DOCUMENT_BYTES } from './schema-lanes';

const LARGE = 50 * 1024 * 1024;

describe('SchemaLanes', () => {
  it('lets a small document in while large ones take turns', async () => {
    const lanes = new SchemaLanes(2);
    const order: string[] = [];
    const releaseFirst = await lanes.admit(LARGE);
    const second = lanes.admit(LARGE).then((release) => (order.push('second large'), release));
    const third = lanes.admit(LARGE).then((release) => (order.push('third large'), release));
    // Behind two large documents, a small one gets its turn at once.
    const small = await lanes.admit(134);
    order.push('small');
    small();
    expect(order).toEqual(['small']);
    releaseFirst();
    const releaseSecond = await second;
    expect(order).toEqual(['small', 'second large']);
    releaseSecond();
    releaseSecond(); // A second release frees nothing more.
    (await third)();
    expect(order).toEqual(['small', 'second large', 'third large']);
  });

  it('runs at most its small slots at once', async () => {
    const lanes = new SchemaLanes(2);
    const held = [await lanes.admit(SMALL_DOCUMENT_BYTES), await lanes.admit(10)];
    let third = false;
    const waiting = lanes.admit(10).then((release) => ((third = true), release));
    await Promise.resolve();
    expect(third).toBe(false);
    held[0]!();
    (await waiting)();
    expect(third).toBe(true);
    held[1]!();
  });
});
