// Per-process limits of the admin API come from config (API_RATE_LIMIT_*, API_*BODY_LIMIT_BYTES, API_JSON_MAX_VALUES,
// GRAPHQL_MAX_*); tests may narrow them for one app instance.
import type { ApiLimits } from '@sitemaps/config';

export type { ApiLimits };

export type ApiLimitOverrides = {
  [K in keyof ApiLimits]?: ApiLimits[K] extends object ? Partial<ApiLimits[K]> : ApiLimits[K];
};

export function apiLimits(base: ApiLimits, overrides: ApiLimitOverrides = {}): ApiLimits {
  return {
    rateLimit: { ...base.rateLimit, ...overrides.rateLimit },
    tenantRateLimit: { ...base.tenantRateLimit, ...overrides.tenantRateLimit },
    authFailures: { ...base.authFailures, ...overrides.authFailures },
    validations: { ...base.validations, ...overrides.validations },
    bulkBodyLimitBytes: overrides.bulkBodyLimitBytes ?? base.bulkBodyLimitBytes,
    bodyLimitBytes: overrides.bodyLimitBytes ?? base.bodyLimitBytes,
    jsonMaxValues: overrides.jsonMaxValues ?? base.jsonMaxValues,
    bodyIdleTimeoutMs: overrides.bodyIdleTimeoutMs ?? base.bodyIdleTimeoutMs,
    graphql: { ...base.graphql, ...overrides.graphql },
  };
}
