import { describe, expect, it } from 'vitest';
import { bigintKey, createdKey, createdKeyOf, decodeCursor, encodeCursor, pageOf, restPage } from './pagination';

describe('pagination', () => {
  it('round-trips each kind of sort key through an opaque cursor', () => {
    expect(decodeCursor(encodeCursor('12345'), bigintKey)).toBe('12345');
    const row = { createdAt: new Date('2026-03-04T05:06:07.089Z'), id: '0b0c9a38-4c5e-4d0a-9d2f-6a1c2b3d4e5f' };
    expect(decodeCursor(encodeCursor(createdKeyOf(row)), createdKey)).toEqual([row.createdAt, row.id]);
    expect(decodeCursor(undefined, bigintKey)).toBeUndefined();
  });

  it('refuses a cursor this list did not hand out with INVALID_CURSOR', () => {
    const invalidCursor = expect.objectContaining({ code: 'INVALID_CURSOR', kind: 'invalid' });
    expect(() => decodeCursor(encodeCursor('1; DROP TABLE urls'), bigintKey)).toThrow(invalidCursor);
    expect(() => decodeCursor(encodeCursor('yesterday|0b0c9a38-4c5e-4d0a-9d2f-6a1c2b3d4e5f'), createdKey)).toThrow(
      invalidCursor,
    );
    expect(() => decodeCursor('', createdKey)).toThrow(invalidCursor);
  });

  it('uses the extra row only to tell whether another page exists', () => {
    const rows = [1, 2, 3].map(String);
    const page = pageOf(
      rows,
      2,
      (row) => row,
      (row) => ({ n: Number(row) }),
    );
    expect(page).toEqual({
      edges: [
        { cursor: encodeCursor('1'), node: { n: 1 } },
        { cursor: encodeCursor('2'), node: { n: 2 } },
      ],
      hasNextPage: true,
    });
    expect(restPage(page)).toEqual({ items: [{ n: 1 }, { n: 2 }], nextCursor: encodeCursor('2') });
    expect(
      restPage(
        pageOf(
          rows.slice(0, 2),
          2,
          (row) => row,
          (row) => row,
        ),
      ),
    ).toEqual({ items: ['1', '2'], nextCursor: null });
  });
});
