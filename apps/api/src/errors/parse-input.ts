import { z } from 'zod';
import { invalid } from '@sitemaps/domain';

/** Validates a request part with zod; failures become one VALIDATION_FAILED with every field at fault. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where = 'body'): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) {
    // Postgres text cannot hold U+0000: refused here, for every input, not as a 500 from the driver.
    const field = nulField(result.data);
    if (field !== undefined)
      throw invalid('VALIDATION_FAILED', `invalid request ${where}`, [
        { field: field || where, code: 'NUL_CHARACTER', message: 'must not contain U+0000 (NUL)' },
      ]);
    return result.data;
  }
  throw invalid(
    'VALIDATION_FAILED',
    `invalid request ${where}`,
    result.error.issues.map((issue) => ({
      field: issue.path.join('.') || where,
      code: issue.code.toUpperCase(),
      message: issue.message,
    })),
  );
}

/** The path of the first string holding a NUL, if any. */
function nulField(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || value instanceof Date) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nulField(item, path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}
