// The api's request limits: rates, bodies, uploads, validations, GraphQL cost.
import { z } from 'zod';

export const limitsEnv = {
  /** Requests one API key may make per window (RateLimiterRedis); a GraphQL request counts once. */
  API_RATE_LIMIT_POINTS: z.coerce.number().int().min(1).default(100).meta({
    description: 'requests per API key per window (Redis); over it: 429 with `Retry-After`',
  }),
  API_RATE_LIMIT_DURATION_S: z.coerce.number().int().min(1).default(1).meta({ docWith: 'API_RATE_LIMIT_POINTS' }),
  /** Requests all keys of one tenant may make together per window: more keys do not buy more requests. */
  API_TENANT_RATE_LIMIT_POINTS: z.coerce.number().int().min(1).default(300).meta({
    description: 'requests all keys of one tenant may make together per window (same window): more keys buy no more',
  }),
  /** How long an Idempotency-Key and the answer it replays are kept. */
  IDEMPOTENCY_KEY_TTL_S: z.coerce
    .number()
    .int()
    .min(60)
    .default(24 * 3_600)
    .meta({ description: 'how long an `Idempotency-Key` and the answer it replays are kept' }),
  /** Largest body of the bulk routes (PUT/DELETE …/urls, POST /graphql): 10,000 URL entries with
   *  alternates and media. Sized with the heap: `npm run bench:limits` sends the largest one. */
  API_BULK_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .default(32 * 1024 * 1024)
    .meta({
      description: 'largest body of `PUT`/`DELETE /v1/sites/:siteId/urls` and `POST /graphql` (413 beyond)',
    }),
  /** Largest body of every other route (a site with its robots.txt, a key, a build request). */
  API_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .default(1024 * 1024)
    .meta({
      description: 'largest body of every other route (413 beyond; imports stream and are not bound by it)',
    }),
  /** JSON values one body may hold, counted before it is parsed: parsed objects cost far more
   *  heap than their bytes (`[{},{},…]`), so bytes alone do not bound memory. */
  API_JSON_MAX_VALUES: z.coerce.number().int().min(100).default(1_000_000).meta({
    description: 'JSON values one body may hold, counted on its bytes before it is parsed (413 beyond)',
  }),
  /** A request body that sends nothing for this long is cut off (slow uploads hold their import). */
  API_BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000).meta({
    description:
      "a request body that sends nothing this long is cut off (an upload's import then fails, keeping every line it sent)",
  }),
  /** Connections of the API's own pool for uploads, apart from the pool that serves every other
   *  request: an upload holds one for its whole life, at the pace of its client. */
  IMPORT_DB_CONNECTIONS: z.coerce.number().int().min(1).max(100).default(6).meta({
    description:
      "the API's pool for uploads, apart from the pool (10) every other request uses: an upload holds a connection for its life, at its client's pace",
  }),
  /** Uploads one tenant may have open in one API process: its share of the import pool. */
  IMPORT_UPLOADS_PER_TENANT: z.coerce.number().int().min(1).max(100).default(2).meta({
    description:
      'uploads one tenant may have open at once in one API process (its share of that pool); more get 429 `UPLOADS_BUSY` at once',
  }),
  /** Validations (POST /v1/validate) one tenant may have running in one API process; more get 429. */
  API_VALIDATIONS_PER_TENANT: z.coerce.number().int().min(1).max(100).default(2).meta({
    description:
      'validations (`POST /v1/validate`) one tenant may have running at once in one API process; more get 429 `VALIDATIONS_BUSY` at once',
  }),
  /** Validations all tenants together may have running or waiting in one API process; more get 429. */
  API_VALIDATIONS_PENDING: z.coerce.number().int().min(1).max(1_000).default(8).meta({
    description:
      'validations all tenants together may have running or waiting in one API process; more get 429 `VALIDATIONS_BUSY`',
  }),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).default(10).meta({
    description:
      'GraphQL query depth, cost, aliased fields per operation (each runs its field again) and document length (413 beyond)',
  }),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(50_000).meta({ docWith: 'GRAPHQL_MAX_DEPTH' }),
  /** Aliased fields per GraphQL operation: each alias runs its field again. */
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30).meta({ docWith: 'GRAPHQL_MAX_DEPTH' }),
  /** Characters of one GraphQL document (variables are bounded as JSON): parsing costs memory per token. */
  GRAPHQL_MAX_QUERY_LENGTH: z.coerce.number().int().min(100).default(100_000).meta({ docWith: 'GRAPHQL_MAX_DEPTH' }),
};
