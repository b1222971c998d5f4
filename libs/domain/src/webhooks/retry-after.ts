// A receiver's `Retry-After` (RFC 9110 §10.2.3): how long to wait before the next attempt, given
// in seconds or as an HTTP date. The delay is honoured up to a day: a receiver cannot park a
// delivery for longer, and a date in the past means now.

export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** The delay in ms asked for by a `Retry-After` value, or undefined when the value is absent or malformed. */
export function retryAfterMs(value: string | null | undefined, now: Date): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1_000, MAX_RETRY_AFTER_MS);
  // HTTP-date (IMF-fixdate, and the obsolete RFC 850 and asctime forms Date.parse also reads): it names a weekday.
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_AFTER_MS);
}
