// W3C Datetime (https://www.w3.org/TR/NOTE-datetime) as the sitemap schemas accept it.
//
// Output forms, chosen so one instant always gives the same bytes (same fragment, same
// content hash, no spurious rebuild):
// - a date stays a date: `2024-05-01`;
// - a date-time becomes UTC with seconds and no fraction: `2024-05-01T10:30:00Z`. The schema
//   type is xsd:dateTime, which requires seconds, and crawlers schedule by the day at best,
//   so the fraction is truncated rather than kept.
// - `YYYY` and `YYYY-MM` are valid W3C Datetime but neither xsd:date nor xsd:dateTime, so
//   they cannot be written; they come back as `coarse` and the caller decides (drop with a
//   warning where the field is optional, reject where it is required).

export type W3cDatetimeResult =
  | { ok: true; value: string; precision: 'date' | 'datetime' }
  | { ok: false; reason: 'format' | 'impossible' | 'coarse' };

const W3C = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

export function normalizeW3cDatetime(input: string): W3cDatetimeResult {
  return alreadyCanonical(input) ?? generalW3cDatetime(input);
}

/**
 * A valid `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`: the output forms, which the general path
 * gives back unchanged. Checked digit by digit, with no match array or Date to build: bulk
 * imports send lastmod in this form on almost every line. Undefined for anything else, valid
 * or not (the general path decides). w3c-datetime.rules.spec.ts checks the two agree.
 */
function alreadyCanonical(input: string): W3cDatetimeResult | undefined {
  const length = input.length;
  if ((length !== 10 && length !== 20) || input.charCodeAt(4) !== DASH || input.charCodeAt(7) !== DASH)
    return undefined;
  const year = digits(input, 0, 4);
  const month = digits(input, 5, 2);
  const day = digits(input, 8, 2);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (length === 10) return { ok: true, value: input, precision: 'date' };
  if (
    input.charCodeAt(10) !== UPPER_T ||
    input.charCodeAt(13) !== COLON ||
    input.charCodeAt(16) !== COLON ||
    input.charCodeAt(19) !== UPPER_Z
  )
    return undefined;
  const hour = digits(input, 11, 2);
  const minute = digits(input, 14, 2);
  const second = digits(input, 17, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  return { ok: true, value: input, precision: 'datetime' };
}

const DASH = 0x2d;
const COLON = 0x3a;
const UPPER_T = 0x54;
const UPPER_Z = 0x5a;

/** The ASCII digits at [start, start + count) as a number, or -1 if one is not a digit. */
function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Every W3C Datetime form, with offsets and fractions: parsed, checked, written back in UTC. */
export function generalW3cDatetime(input: string): W3cDatetimeResult {
  const m = W3C.exec(input);
  if (!m) return { ok: false, reason: 'format' };
  const [, ys, mos, ds, hs, mis, ss, , tz] = m;
  const year = Number(ys);
  if (year < 1) return { ok: false, reason: 'impossible' }; // xsd has no year 0000
  if (mos === undefined) return { ok: false, reason: 'coarse' };
  const month = Number(mos);
  if (month < 1 || month > 12) return { ok: false, reason: 'impossible' };
  if (ds === undefined) return { ok: false, reason: 'coarse' };
  const day = Number(ds);
  if (day < 1 || day > daysInMonth(year, month)) return { ok: false, reason: 'impossible' };
  if (hs === undefined || mis === undefined || tz === undefined) {
    return { ok: true, value: input, precision: 'date' };
  }

  const hour = Number(hs);
  const minute = Number(mis);
  const second = ss === undefined ? 0 : Number(ss);
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, reason: 'impossible' };
  let offsetMinutes = 0;
  if (tz !== 'Z') {
    const oh = Number(tz.slice(1, 3));
    const om = Number(tz.slice(4, 6));
    // xsd:dateTime allows offsets up to ±14:00.
    if (om > 59 || oh > 14 || (oh === 14 && om > 0)) return { ok: false, reason: 'impossible' };
    offsetMinutes = (tz[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }

  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day); // not Date.UTC: it maps years 0–99 to 1900s
  at.setUTCHours(hour, minute - offsetMinutes, second, 0);
  const utcYear = at.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) return { ok: false, reason: 'impossible' };
  return { ok: true, value: formatUtc(at), precision: 'datetime' };
}

/**
 * A W3C datetime as an instant; a date means its midnight UTC. The canonical date-time (almost
 * every stored lastmod) is read from its digits, not parsed: a bulk import stores one per URL.
 * Date.UTC maps years below 100 to the 1900s, so those take the general path.
 */
export function w3cInstant(value: string): Date {
  if (value.length === 20 && value.charCodeAt(10) === UPPER_T && value.charCodeAt(19) === UPPER_Z) {
    const year = digits(value, 0, 4);
    const month = digits(value, 5, 2);
    const day = digits(value, 8, 2);
    const hour = digits(value, 11, 2);
    const minute = digits(value, 14, 2);
    const second = digits(value, 17, 2);
    if (year >= 100 && month >= 0 && day >= 0 && hour >= 0 && minute >= 0 && second >= 0)
      return new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  }
  return generalW3cInstant(value);
}

/** w3cInstant for every form W3C Datetime allows. */
export function generalW3cInstant(value: string): Date {
  if (/^\d{4}$/.test(value)) return new Date(`${value}-01-01T00:00:00Z`);
  if (/^\d{4}-\d{2}$/.test(value)) return new Date(`${value}-01T00:00:00Z`);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  return new Date(value);
}

/** `YYYY-MM-DDThh:mm:ssZ` for a Date, the same form `normalizeW3cDatetime` produces. */
export function formatUtc(at: Date): string {
  return (
    `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1, 2)}-${pad(at.getUTCDate(), 2)}` +
    `T${pad(at.getUTCHours(), 2)}:${pad(at.getUTCMinutes(), 2)}:${pad(at.getUTCSeconds(), 2)}Z`
  );
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
