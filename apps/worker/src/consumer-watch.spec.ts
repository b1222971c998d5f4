import { describe, expect, it } from 'vitest';
import { ConsumerWatch, type ConsumerSample } from './consumer-watch';

const idle: Omit<ConsumerSample, 'at'> = { ready: 0, running: 0, concurrency: 2, lastTakenAt: 0, loopRunning: true };

describe('ConsumerWatch', () => {
  it('calls a queue stalled once jobs have waited stallMs with a free slot and none was taken', () => {
    const watch = new ConsumerWatch(10_000);
    expect(watch.observe({ ...idle, at: 1_000, ready: 3 }).stalled).toBe(false);
    expect(watch.observe({ ...idle, at: 10_999, ready: 3 }).stalled).toBe(false);
    const state = watch.observe({ ...idle, at: 11_000, ready: 1, running: 1 });
    expect(state).toEqual({ stalled: true, reason: '1 job(s) ready for 10 s with 1 free slot(s), none taken' });
    expect(watch.current).toBe(state);
  });

  it('restarts the clock when a job is taken or the queue is empty at a look', () => {
    const watch = new ConsumerWatch(10_000);
    watch.observe({ ...idle, at: 0, ready: 3 });
    // Taken meanwhile: the worker consumes, jobs just keep coming.
    watch.observe({ ...idle, at: 8_000, ready: 3, lastTakenAt: 5_000 });
    expect(watch.observe({ ...idle, at: 17_000, ready: 3, lastTakenAt: 5_000 }).stalled).toBe(false);
    expect(watch.observe({ ...idle, at: 18_000, ready: 3, lastTakenAt: 5_000 }).stalled).toBe(true);
    // Other processes emptied the queue: nobody needs this one now.
    expect(watch.observe({ ...idle, at: 19_000 }).stalled).toBe(false);
    expect(watch.observe({ ...idle, at: 20_000, ready: 1 }).stalled).toBe(false);
  });

  it('does not blame a worker whose slots are all busy', () => {
    const watch = new ConsumerWatch(10_000);
    watch.observe({ ...idle, at: 0, ready: 50, running: 2 });
    expect(watch.observe({ ...idle, at: 60_000, ready: 50, running: 2 }).stalled).toBe(false);
  });

  it('calls a worker whose loop has ended stalled at once', () => {
    expect(new ConsumerWatch(10_000).observe({ ...idle, at: 0, loopRunning: false })).toEqual({
      stalled: true,
      reason: 'its worker loop has ended',
    });
  });
});
