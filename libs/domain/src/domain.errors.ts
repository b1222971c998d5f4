// Typed errors with stable codes. Each transport maps `kind` once (REST status, GraphQL
// extensions.code, worker retry policy); domain code never knows about HTTP.

export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  /** A tenant quota (QUOTA_*): one status for all of them. */
  | 'quota'
  /** Well-formed, but contradicts what the client sent before (IDEMPOTENCY_KEY_REUSED). */
  | 'unprocessable'
  | 'too_large'
  | 'rate_limited'
  /** Something the platform is not set up to do (MAIL_NOT_CONFIGURED). */
  | 'unavailable';

export interface ErrorDetail {
  field?: string;
  index?: number;
  line?: number;
  code?: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: 'tenant' | 'site' | 'build' | 'api key' | 'url' | 'import' | 'person', id?: string) =>
  new DomainError(
    'not_found',
    `${what.replace(' ', '_').toUpperCase()}_NOT_FOUND`,
    id ? `${what} ${id} not found` : `${what} not found`,
  );

export const invalid = (code: string, message: string, details: ErrorDetail[] = []) =>
  new DomainError('invalid', code, message, details);

/** The fields an error or any of its `cause`s may carry, as the libraries in use set them. */
export interface ErrorFields {
  name?: unknown;
  code?: unknown;
  kind?: unknown;
  message?: unknown;
}

/**
 * Whether the error, or any error in its chain of `cause`s, passes `test`: drivers and queue
 * libraries wrap what they met in any number of causes. A cycle of causes ends the walk.
 */
export function someCause(error: unknown, test: (fields: ErrorFields) => boolean): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current);) {
    seen.add(current);
    if (test(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
