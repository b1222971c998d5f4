// Keyset pagination shared by every list, REST and GraphQL alike: a page is a slice of rows
// after an opaque cursor that encodes the sort key of the last row the client saw.
import { z } from 'zod';
import { invalid } from '@sitemaps/domain';

export const MAX_PAGE_SIZE = 1_000;
export const DEFAULT_PAGE_SIZE = 100;

export interface PageRequest {
  after?: string | undefined;
  first: number;
}

export interface Page<T> {
  edges: { cursor: string; node: T }[];
  hasNextPage: boolean;
}

/** REST query parameters of every list: `?cursor=&limit=`. */
export const cursorQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});

/** GraphQL arguments of every connection: `first`, `after`. */
export const connectionArgs = z.object({
  after: z
    .string()
    .max(200)
    .nullish()
    .transform((value) => value ?? undefined),
  first: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .nullish()
    .transform((value) => value ?? DEFAULT_PAGE_SIZE),
});

const anyKey = z.string().min(1);
export const encodeCursor = (key: string) => Buffer.from(key).toString('base64url');

/** The sort key in a cursor, checked against the shape this list's keys have. */
export function decodeCursor<T = string>(
  cursor: string | undefined,
  key: z.ZodType<T> = anyKey as unknown as z.ZodType<T>,
): T | undefined {
  if (cursor === undefined) return undefined;
  const parsed = key.safeParse(Buffer.from(cursor, 'base64url').toString());
  if (!parsed.success)
    throw invalid('INVALID_CURSOR', 'cursor is not one this API returned', [
      { field: 'cursor', message: 'invalid cursor' },
    ]);
  return parsed.data;
}

/** Rows fetched with `take: first + 1`: the extra row only tells whether another page exists. */
export function pageOf<R, T>(rows: R[], first: number, keyOf: (row: R) => string, present: (row: R) => T): Page<T> {
  return {
    edges: rows.slice(0, first).map((row) => ({ cursor: encodeCursor(keyOf(row)), node: present(row) })),
    hasNextPage: rows.length > first,
  };
}

export function restPage<T>(page: Page<T>): { items: T[]; nextCursor: string | null } {
  return {
    items: page.edges.map((edge) => edge.node),
    nextCursor: page.hasNextPage ? (page.edges.at(-1)?.cursor ?? null) : null,
  };
}

/** Sort keys: a bigint id, a uuid, or a creation instant with a uuid to break ties. */
/** Postgres' bigint: a 19-digit string may still be beyond it. */
export const bigintKey = z
  .string()
  .regex(/^\d{1,19}$/)
  .refine((value) => /^\d{1,19}$/.test(value) && BigInt(value) <= 9_223_372_036_854_775_807n);
export const uuidKey = z.uuid();
export const createdKey = z
  .string()
  .regex(/^[^|]+\|[^|]+$/)
  .transform((value) => value.split('|') as [string, string])
  .pipe(
    z.tuple([
      // Only instants this API wrote: Postgres has no year 0, and JavaScript's dates run past its range.
      z.iso
        .datetime()
        .transform((iso) => new Date(iso))
        .refine((date) => date.getUTCFullYear() >= 1970 && date.getUTCFullYear() <= 9999),
      z.uuid(),
    ]),
  );
export const createdKeyOf = (row: { createdAt: Date; id: string }) => `${row.createdAt.toISOString()}|${row.id}`;
