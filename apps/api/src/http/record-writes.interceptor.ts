// Read-your-writes with a read replica: once a tenant's request that may write (a REST method
// other than GET/HEAD, a GraphQL mutation) has run, successful or not, the primary's WAL position
// is recorded for the tenant before the answer goes out, so the tenant's next read, on any API
// process, waits for the replica to replay it or goes to the primary. Without a replica, nothing.
import { Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import { ReadRouter } from '@sitemaps/data';
import { catchError, mergeMap, type Observable } from 'rxjs';
import { httpOf } from '../auth/transport-context';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

@Injectable()
export class RecordWritesInterceptor implements NestInterceptor {
  private readonly logger = new Logger('read-replica');

  constructor(private readonly router: ReadRouter) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const tenantId = this.router.hasReplica ? writingTenant(context) : undefined;
    if (tenantId === undefined) return next.handle();
    return next.handle().pipe(
      mergeMap(async (value: unknown) => {
        await this.router.recordWrite(tenantId);
        return value;
      }),
      // A failed request may have written part of its work (a batch, an upload): recorded too.
      // The request's own error is its answer; a failure to record beside it is logged.
      catchError(async (error: unknown) => {
        await this.router
          .recordWrite(tenantId)
          .catch((failure: Error) =>
            this.logger.error(`could not record tenant ${tenantId}'s write: ${failure.message}`),
          );
        throw error;
      }),
    );
  }
}

/** The tenant whose data the request may change, or undefined for a read (or a platform-key request). */
function writingTenant(context: ExecutionContext): string | undefined {
  const { principal, method } = httpOf(context).request;
  if (principal?.kind !== 'tenant') return undefined;
  const writes =
    context.getType<GqlContextType>() === 'graphql'
      ? GqlExecutionContext.create(context).getInfo().operation.operation === 'mutation'
      : !READ_METHODS.has(method);
  return writes ? principal.tenantId : undefined;
}
