import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthedRequest } from './api-key.guard';

/** The calling tenant's id; the guard has already required a tenant key. */
export const TenantId = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const { principal } = context.switchToHttp().getRequest<AuthedRequest>();
  if (principal.kind !== 'tenant') throw new Error('TenantId used on a route that does not require a tenant key');
  return principal.tenantId;
});
