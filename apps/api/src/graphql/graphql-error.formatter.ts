// The one place where errors become GraphQL errors: a DomainError keeps its code (the same codes
// as REST) in `extensions.code` with its details; invalid, too deep or too costly queries get
// their own codes; anything else is INTERNAL, logged here, and never shows a stack trace.
import { Logger } from '@nestjs/common';
import type { ExecutionResult, FormattedExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import { isDatabaseUnavailable } from '@sitemaps/data';
import { DomainError, type ErrorKind } from '@sitemaps/domain';
import { isRedisUnavailable } from '@sitemaps/jobs';
import { QUERY_TOO_COMPLEX, QUERY_TOO_DEEP } from './query-limits.rules';

/** Refusals of the whole request keep their HTTP status; field errors travel in a 200, as GraphQL over HTTP has it. */
const REQUEST_STATUS: Partial<Record<ErrorKind, number>> = { unauthenticated: 401, rate_limited: 429 };
const FRAMEWORK_CODES: Record<number, string> = {
  400: 'MALFORMED_BODY',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

const logger = new Logger('graphql');

type Formatted = { error: GraphQLFormattedError; status: number | undefined };

export function formatGraphqlErrors(execution: ExecutionResult & { errors: readonly GraphQLError[] }): {
  statusCode: number;
  response: FormattedExecutionResult;
} {
  const formatted = execution.errors.flatMap(formatError);
  const statuses = new Set(formatted.map((item) => item.status));
  const [only] = statuses;
  return {
    statusCode: statuses.size === 1 && only !== undefined ? only : 200,
    response: { data: execution.data ?? null, errors: formatted.map((item) => item.error) },
  };
}

function formatError(error: GraphQLError): Formatted[] {
  const located = {
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
  };
  // The rule takes `Error & {…optional}` for `Error`; tsc needs the assertion to read those fields.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  const original = error.originalError as
    (Error & { errors?: unknown; statusCode?: number; apiCode?: string }) | undefined;
  if (original instanceof DomainError) {
    return [
      {
        error: {
          message: original.message,
          ...located,
          extensions: { code: original.code, details: original.details },
        },
        status: REQUEST_STATUS[original.kind],
      },
    ];
  }
  // mercurius wraps the reasons a query cannot run (syntax, validation, depth, cost, variables) in one error.
  if (Array.isArray(original?.errors))
    return (original.errors as (Error & { extensions?: { code?: unknown } })[]).map((inner) =>
      invalidQuery(inner, 400),
    );
  // graphql-js's own complaints while running an accepted query (no thrown error behind them).
  if (!original) return [invalidQuery(error, undefined)];
  // Fastify's own refusals of the HTTP request: body too large, malformed JSON, wrong method.
  if (typeof original.statusCode === 'number' && original.statusCode >= 400 && original.statusCode < 500) {
    return [
      {
        error: {
          message: original.message,
          extensions: {
            code: original.apiCode ?? FRAMEWORK_CODES[original.statusCode] ?? `HTTP_${original.statusCode}`,
            details: [],
          },
        },
        status: original.statusCode,
      },
    ];
  }
  // The database or Redis unreachable (restarting, failing over): not done, retry; as REST's 503.
  const unavailable = isDatabaseUnavailable(original)
    ? { what: 'database', code: 'DATABASE_UNAVAILABLE', message: 'the database is unavailable; retry later' }
    : isRedisUnavailable(original)
      ? { what: 'Redis', code: 'REDIS_UNAVAILABLE', message: 'the job queue is unavailable; retry later' }
      : undefined;
  if (unavailable) {
    logger.warn(`${error.path?.join('.') ?? 'request'}: ${unavailable.what} unavailable: ${original?.message}`);
    return [
      {
        error: { message: unavailable.message, ...located, extensions: { code: unavailable.code, details: [] } },
        status: 503,
      },
    ];
  }
  logger.error(`${error.path?.join('.') ?? 'request'}: ${original.stack ?? original.message}`);
  return [
    {
      error: { message: 'internal error', ...located, extensions: { code: 'INTERNAL', details: [] } },
      status: undefined,
    },
  ];
}

function invalidQuery(error: Error & { extensions?: { code?: unknown } }, status: number | undefined): Formatted {
  const own = error.extensions?.code;
  const code = own === QUERY_TOO_DEEP || own === QUERY_TOO_COMPLEX ? own : 'GRAPHQL_VALIDATION_FAILED';
  const locations = (error as GraphQLError).locations;
  return {
    error: { message: error.message, ...(locations ? { locations } : {}), extensions: { code, details: [] } },
    status,
  };
}
