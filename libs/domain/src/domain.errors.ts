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
