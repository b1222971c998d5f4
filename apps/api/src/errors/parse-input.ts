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
