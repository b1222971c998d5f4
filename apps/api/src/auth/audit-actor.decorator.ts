import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuditActor } from '@sitemaps/data';
import { httpOf } from './transport-context';

/** Who makes an operator request, for the audit log: the platform key, from this address. */
export const AuditActorOf = createParamDecorator((_: unknown, context: ExecutionContext): AuditActor => {
  const { request } = httpOf(context);
  return {
    actor: request.principal.kind === 'platform' ? 'platform' : `key:${request.principal.keyId}`,
    ip: request.ip ?? null,
  };
});
