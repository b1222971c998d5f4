import { Logger } from '@nestjs/common';
import { GraphQLError } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { DomainError, notFound } from '@sitemaps/domain';
import { formatGraphqlErrors } from './graphql-error.formatter';
import { QUERY_TOO_COMPLEX } from './query-limits.rules';

const located = (originalError: Error) => new GraphQLError(originalError.message, { path: ['site'], originalError });

describe('formatGraphqlErrors', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it("keeps a domain error's code and details, in a 200 with the partial data", () => {
    const error = new DomainError('invalid', 'VALIDATION_FAILED', 'invalid input', [
      { field: 'first', message: 'too big' },
    ]);
    expect(formatGraphqlErrors({ data: { site: null, sites: [] }, errors: [located(error)] })).toEqual({
      statusCode: 200,
      response: {
        data: { site: null, sites: [] },
        errors: [
          {
            message: 'invalid input',
            path: ['site'],
            extensions: { code: 'VALIDATION_FAILED', details: [{ field: 'first', message: 'too big' }] },
          },
        ],
      },
    });
    expect(
      formatGraphqlErrors({ data: { site: null }, errors: [located(notFound('site', 'x'))] }).response.errors?.[0]
        ?.extensions?.code,
    ).toBe('SITE_NOT_FOUND');
  });

  it('answers a refused request (no key, rate limit) with its HTTP status', () => {
    const unauthenticated = located(new DomainError('unauthenticated', 'UNAUTHENTICATED', 'missing API key'));
    expect(
      formatGraphqlErrors({ data: { a: null, b: null }, errors: [unauthenticated, unauthenticated] }).statusCode,
    ).toBe(401);
    expect(
      formatGraphqlErrors({
        data: { a: null },
        errors: [located(new DomainError('rate_limited', 'RATE_LIMITED', 'slow down'))],
      }).statusCode,
    ).toBe(429);
  });

  it('gives invalid, too deep and too costly queries a 400 with their own codes', () => {
    const wrapped = Object.assign(new Error('Graphql validation error'), {
      statusCode: 400,
      errors: [
        new GraphQLError('Cannot query field "x"'),
        new GraphQLError('query cost 9 exceeds the limit of 1', { extensions: { code: QUERY_TOO_COMPLEX } }),
      ],
    });
    const { statusCode, response } = formatGraphqlErrors({
      errors: [new GraphQLError(wrapped.message, { originalError: wrapped })],
    });
    expect(statusCode).toBe(400);
    expect(response.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED', QUERY_TOO_COMPLEX]);
    expect(response.data).toBeNull();
  });

  it('hides anything unexpected behind INTERNAL, without its message or stack', () => {
    const { statusCode, response } = formatGraphqlErrors({
      data: { site: null },
      errors: [located(new Error('connection to 10.0.0.5 refused'))],
    });
    expect(statusCode).toBe(200);
    expect(response.errors).toEqual([
      { message: 'internal error', path: ['site'], extensions: { code: 'INTERNAL', details: [] } },
    ]);
  });

  it('answers Redis unreachable (a cluster failing over) 503 REDIS_UNAVAILABLE, not INTERNAL', () => {
    const { statusCode, response } = formatGraphqlErrors({
      data: { site: null },
      errors: [located(new Error('CLUSTERDOWN The cluster is down'))],
    });
    expect(statusCode).toBe(503);
    expect(response.errors?.[0]?.extensions?.code).toBe('REDIS_UNAVAILABLE');
  });

  it("maps fastify's refusal of the body (too large) to its status", () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), {
      statusCode: 413,
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    });
    const { statusCode, response } = formatGraphqlErrors({
      errors: [new GraphQLError(tooLarge.message, { originalError: tooLarge })],
    });
    expect(statusCode).toBe(413);
    expect(response.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
