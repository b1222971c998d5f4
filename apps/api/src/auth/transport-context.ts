import type { ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from './principal';

export type AuthedRequest = FastifyRequest & { principal: Principal };

/** The HTTP request and reply behind a REST handler or a GraphQL resolver (mercurius puts them in its context). */
export function httpOf(context: ExecutionContext): { request: AuthedRequest; reply: FastifyReply } {
  if (context.getType<GqlContextType>() === 'graphql') {
    const { req, reply } = GqlExecutionContext.create(context).getContext<{
      req: AuthedRequest;
      reply: FastifyReply;
    }>();
    return { request: req, reply };
  }
  const http = context.switchToHttp();
  return { request: http.getRequest<AuthedRequest>(), reply: http.getResponse<FastifyReply>() };
}
