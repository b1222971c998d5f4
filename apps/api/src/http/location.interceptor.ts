// `Location` on every 201 and 202: a route that creates (or queues) something says where it is
// with @ZodCreated, which documents the header and sets it from the handler's result here.
import { Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { tap, type Observable } from 'rxjs';

/** The path of what a route created, from its result and the request's path parameters. */
export type LocationOf<R = unknown> = (result: R, params: Record<string, string>) => string;

export const LOCATION_OF = 'location-of';
// The route's result type is known where the decorator is written, not where the metadata is
// read: the interceptor calls it with whatever the handler returned.
export const LocationOf = <R>(locationOf: LocationOf<R>) => SetMetadata(LOCATION_OF, locationOf);

@Injectable()
export class LocationInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const locationOf = this.reflector.get<LocationOf | undefined>(LOCATION_OF, context.getHandler());
    if (!locationOf) return next.handle();
    const http = context.switchToHttp();
    const params = (http.getRequest<FastifyRequest>().params ?? {}) as Record<string, string>;
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(tap((result) => void reply.header('location', locationOf(result, params))));
  }
}
