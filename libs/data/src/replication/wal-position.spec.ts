import { describe, expect, it } from 'vitest';
import { formatLsn, parseLsn } from './wal-position';

describe('WAL positions', () => {
  it('formats a position as Postgres writes it, and parses it back to the same number', () => {
    for (const lsn of ['0/0', '0/16B3748', '16/B374D848', 'FFFFFFFF/FFFFFFFF']) {
      expect(formatLsn(parseLsn(lsn))).toBe(lsn);
    }
    expect(parseLsn('16/B374D848')).toBe(0x16_b374d848n);
  });
});
