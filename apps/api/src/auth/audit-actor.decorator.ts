import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuditActor } from '@sitemaps/data';
import { actorOf } from './principal';
import { httpOf } from './transport-context';

/** Who makes a request, for the audit log: the platform key, a tenant's key or a person, from this address. */
export const AuditActorOf = createParamDecorator((_: unknown, context: ExecutionContext): AuditActor => {
  const { request } = httpOf(context);
  return {
    actor: actorOf(request.principal),
    ip: request.ip ?? null,
  };
});
