// Per-process limits of the admin API come from config (API_RATE_LIMIT_*, API_BODY_LIMIT_BYTES,
// GRAPHQL_MAX_*); tests may narrow them for one app instance.
import type { ApiLimits } from '@sitemaps/config';

export type { ApiLimits };

export type ApiLimitOverrides = { [K in keyof ApiLimits]?: ApiLimits[K] extends object ? Partial<ApiLimits[K]> : ApiLimits[K] };

export function apiLimits(base: ApiLimits, overrides: ApiLimitOverrides = {}): ApiLimits {
  return {
    rateLimit: { ...base.rateLimit, ...overrides.rateLimit },
    bodyLimitBytes: overrides.bodyLimitBytes ?? base.bodyLimitBytes,
    graphql: { ...base.graphql, ...overrides.graphql },
  };
}
