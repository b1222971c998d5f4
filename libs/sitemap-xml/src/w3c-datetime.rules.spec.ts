import { describe, expect, it } from 'vitest';
import {
  formatUtc,
  generalW3cDatetime,
  generalW3cInstant,
  normalizeW3cDatetime,
  w3cInstant,
} from './w3c-datetime.rules';

describe('normalizeW3cDatetime', () => {
  it.each([
    ['2024-05-01', '2024-05-01'],
    ['2024-02-29', '2024-02-29'],
    ['2000-02-29', '2000-02-29'],
    ['0001-01-01', '0001-01-01'],
    ['2024-05-01T10:30Z', '2024-05-01T10:30:00Z'],
    ['2024-05-01T10:30:45Z', '2024-05-01T10:30:45Z'],
    ['2024-05-01T10:30:45.999999Z', '2024-05-01T10:30:45Z'],
    ['2024-05-01T10:30+02:00', '2024-05-01T08:30:00Z'],
    ['2024-05-01T01:30:00+05:30', '2024-04-30T20:00:00Z'],
    ['2024-12-31T23:30:00-01:00', '2025-01-01T00:30:00Z'],
    ['2024-02-28T23:00:00-01:00', '2024-02-29T00:00:00Z'],
    ['2024-05-01T00:00:00-00:00', '2024-05-01T00:00:00Z'],
    ['2024-05-01T10:00+14:00', '2024-04-30T20:00:00Z'],
    ['0050-06-01T12:00:00Z', '0050-06-01T12:00:00Z'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeW3cDatetime(input)).toEqual({
      ok: true,
      value: expected,
      precision: expected.includes('T') ? 'datetime' : 'date',
    });
  });

  it.each([
    ['2023-02-29', 'impossible'],
    ['1900-02-29', 'impossible'],
    ['2024-00-10', 'impossible'],
    ['2024-13-01', 'impossible'],
    ['2024-06-31', 'impossible'],
    ['2024-05-00', 'impossible'],
    ['2024-05-01T24:00Z', 'impossible'],
    ['2024-05-01T10:60Z', 'impossible'],
    ['2024-05-01T10:00:60Z', 'impossible'],
    ['2024-05-01T10:00+14:30', 'impossible'],
    ['2024-05-01T10:00+02:60', 'impossible'],
    ['0000-01-01', 'impossible'],
    ['0001-01-01T00:00:00+01:00', 'impossible'],
    ['9999-12-31T23:00:00-05:00', 'impossible'],
    ['2024', 'coarse'],
    ['2024-05', 'coarse'],
    ['2024-05-01T10:00', 'format'],
    ['2024-05-01T10:00:00', 'format'],
    ['2024-05-01T10Z', 'format'],
    ['2024-05-01 10:00Z', 'format'],
    ['2024-05-01t10:00z', 'format'],
    ['2024-5-1', 'format'],
    ['24-05-01', 'format'],
    ['2024-05-01T10:00:00.Z', 'format'],
    ['2024-05-01T10:00+0200', 'format'],
    ['20240501', 'format'],
    [' 2024-05-01', 'format'],
    ['May 1, 2024', 'format'],
  ])('%s is rejected as %s', (input, reason) => {
    expect(normalizeW3cDatetime(input)).toEqual({ ok: false, reason });
  });

  it('formats Dates the same way', () => {
    expect(formatUtc(new Date('2024-05-01T10:30:45.678Z'))).toBe('2024-05-01T10:30:45Z');
  });

  it('agrees with the general parser on inputs near the canonical forms (seeded fuzz)', () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return (seed >>> 8) % n;
    };
    const canonical = (date: boolean) => {
      const d = new Date(Date.UTC(0, 0, 1) + next(2 ** 30) * 1e5 * (1 + next(100)));
      const text = formatUtc(d);
      return date ? text.slice(0, 10) : text;
    };
    // Canonical strings, then single-character damage: digits out of range, wrong separators,
    // non-ASCII digits, lower-case t/z, and lengths one off.
    const damage = [
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '-',
      ':',
      'T',
      'Z',
      't',
      'z',
      ' ',
      '+',
      '.',
      '٣',
      'a',
    ];
    let fast = 0;
    for (let i = 0; i < 40_000; i++) {
      let input = canonical(next(2) === 0);
      const at = next(input.length + 1);
      const kind = next(4);
      if (kind === 1) input = input.slice(0, at) + (damage[next(damage.length)] as string) + input.slice(at + 1);
      else if (kind === 2) input = input.slice(0, at) + (damage[next(damage.length)] as string) + input.slice(at);
      else if (kind === 3) input = input.slice(0, at) + input.slice(at + 1);
      const general = generalW3cDatetime(input);
      expect(normalizeW3cDatetime(input), input).toEqual(general);
      if (general.ok && general.value === input) fast += 1;
    }
    expect(fast).toBeGreaterThan(10_000);
  });
});

describe('w3cInstant', () => {
  it('reads canonical date-times as the general parser does, and leaves other forms to it', () => {
    let seed = 11;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return (seed >>> 8) % n;
    };
    const inputs = [
      '2024-02-29T23:59:59Z',
      '0050-06-01T12:00:00Z',
      '0099-12-31T23:59:59Z',
      '0100-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '2024-05-01',
      '2024',
      '2024-05',
      '2024-05-01T10:30:00+02:00',
    ];
    for (let i = 0; i < 5_000; i++) inputs.push(formatUtc(new Date(next(2 ** 30) * 1e5 * (1 + next(300)))));
    for (const input of inputs) expect(w3cInstant(input).getTime(), input).toBe(generalW3cInstant(input).getTime());
    expect(w3cInstant('0050-06-01T12:00:00Z').getUTCFullYear()).toBe(50);
  });
});
