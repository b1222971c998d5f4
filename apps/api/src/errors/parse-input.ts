import { z } from 'zod';
import { invalid } from '@sitemaps/domain';

/** Validates a request part with zod; failures become one VALIDATION_FAILED with every field at fault. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where = 'body'): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(
    'VALIDATION_FAILED',
    `invalid request ${where}`,
    result.error.issues.map((issue) => ({ field: issue.path.join('.') || where, code: issue.code.toUpperCase(), message: issue.message })),
  );
}

export const cursorQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1_000).default(100),
});

export const encodeCursor = (value: string) => Buffer.from(value).toString('base64url');
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const value = Buffer.from(cursor, 'base64url').toString();
  if (!value) throw invalid('INVALID_CURSOR', 'cursor is not one this API returned', [{ field: 'cursor', message: 'invalid cursor' }]);
  return value;
}
