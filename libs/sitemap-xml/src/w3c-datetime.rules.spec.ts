import { describe, expect, it } from 'vitest';
import { formatUtc, normalizeW3cDatetime } from './w3c-datetime.rules';

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
});
