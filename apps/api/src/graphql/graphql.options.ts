import { MercuriusDriver, type MercuriusDriverConfig } from '@nestjs/mercurius';
import type { ApiLimits } from '../api.limits';
import { formatGraphqlErrors } from './graphql-error.formatter';
import { aliasLimitRule, costLimitRule, depthLimitRule } from './query-limits.rules';

/**
 * GraphQL at /graphql over the same services as REST. Depth, aliases and cost are checked before anything
 * runs; the cost rule needs the request's variables (`first: $n`), so the rules are built per
 * request and mercurius's query cache, which would skip them, is off.
 */
export function graphqlOptions(limits: ApiLimits['graphql']): MercuriusDriverConfig {
  return {
    driver: MercuriusDriver,
    path: '/graphql',
    autoSchemaFile: true,
    sortSchema: true,
    graphiql: false,
    cache: false,
    validationRules: ({ variables, operationName }) => [
      depthLimitRule(limits.maxDepth),
      aliasLimitRule(limits.maxAliases),
      costLimitRule(limits.maxComplexity, variables, operationName),
    ],
    errorFormatter: (execution) => formatGraphqlErrors(execution),
  };
}
