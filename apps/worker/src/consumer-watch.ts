// Whether this process still consumes a queue, judged by what it does, not by what BullMQ's
// worker says of itself: a worker whose main loop hangs (a blocking client stuck in a reconnect
// after a Redis failover, say) still reports `isRunning()`, logs nothing and takes no job. So a
// queue counts as stalled here when jobs were ready in it at every look for `stallMs` while this
// process had a free slot for them and took none, or when its worker's loop has ended while the
// process is not shutting down. Other processes emptying the queue meanwhile reset the clock:
// a worker is only blamed while the queue needs it.

export interface ConsumerSample {
  /** When the sample was taken (ms). */
  at: number;
  /** Jobs ready to be taken (wait + prioritized). */
  ready: number;
  /** Jobs this process is running on the queue now. */
  running: number;
  concurrency: number;
  /** When this process last took a job of the queue (ms; 0: never). */
  lastTakenAt: number;
  /** BullMQ's `isRunning()`: false once the worker's main loop has ended. */
  loopRunning: boolean;
}

export interface ConsumerState {
  stalled: boolean;
  /** Why, when stalled: for the log and the readiness failure. */
  reason?: string;
}

export class ConsumerWatch {
  /** Since when jobs have been ready, with room for them, and none taken; undefined: not so now. */
  private starvedSince: number | undefined;
  private state: ConsumerState = { stalled: false };

  constructor(private readonly stallMs: number) {}

  get current(): ConsumerState {
    return this.state;
  }

  observe(sample: ConsumerSample): ConsumerState {
    if (!sample.loopRunning) return (this.state = { stalled: true, reason: 'its worker loop has ended' });
    const starved = sample.ready > 0 && sample.running < sample.concurrency;
    if (!starved) this.starvedSince = undefined;
    else if (this.starvedSince === undefined || sample.lastTakenAt >= this.starvedSince) this.starvedSince = sample.at;
    const waited = this.starvedSince === undefined ? 0 : sample.at - this.starvedSince;
    this.state =
      waited >= this.stallMs
        ? {
            stalled: true,
            reason: `${sample.ready} job(s) ready for ${Math.round(waited / 1000)} s with ${sample.concurrency - sample.running} free slot(s), none taken`,
          }
        : { stalled: false };
    return this.state;
  }
}
