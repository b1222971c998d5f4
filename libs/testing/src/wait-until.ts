// The one way tests wait for something that happens asynchronously: poll, bounded, and on
// timeout say what was awaited and what was last seen. Never a fixed sleep.

export interface WaitOptions {
  /** Default 60 s. */
  timeoutMs?: number;
  /** Default 100 ms. */
  intervalMs?: number;
}

export class WaitTimeoutError extends Error {
  constructor(what: string, timeoutMs: number, last: unknown) {
    super(
      `timed out after ${timeoutMs} ms waiting for ${what}${last === undefined ? '' : `; last seen: ${describe(last)}`}`,
    );
    this.name = 'WaitTimeoutError';
  }
}

/** Records what a probe saw, for the timeout's message; returns it. */
export type Seen = <V>(value: V) => V;

/** Resolves with the first value `probe` returns that is neither undefined nor false. */
export async function waitUntil<T>(
  what: string,
  probe: (seen: Seen) => Promise<T | undefined | false> | T | undefined | false,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  const seen: Seen = (value) => ((last = value), value);
  for (;;) {
    const value = await probe(seen);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new WaitTimeoutError(what, timeoutMs, last);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}

function describe(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}
