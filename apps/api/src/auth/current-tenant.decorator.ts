import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { httpOf } from './transport-context';

/** The calling tenant's id, in REST handlers and GraphQL resolvers; the guard has already required a tenant key. */
export const TenantId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const { principal } = httpOf(context).request;
  if (principal.kind !== 'tenant') throw new Error('TenantId used on a route that does not require a tenant key');
  return principal.tenantId;
});
