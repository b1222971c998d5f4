// The URL import takes uploads of any size: for its content types fastify hands the handler the
// raw request stream instead of reading (and limiting) the body. Other routes refuse those types.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

export const IMPORT_ROUTE_SUFFIX = '/urls/import';

const STREAMED_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines', 'text/csv', 'application/gzip', 'application/x-gzip', 'application/octet-stream'];

/** ndjson or csv for a Content-Type, if it names one. */
export function formatOfContentType(contentType: string | undefined): 'ndjson' | 'csv' | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/csv') return 'csv';
  if (type && STREAMED_TYPES.includes(type)) return 'ndjson';
  return undefined;
}

@Injectable()
export class ImportBodyParser implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance() as FastifyInstance;
    const types = STREAMED_TYPES.filter((type) => !fastify.hasContentTypeParser(type));
    fastify.addContentTypeParser(types, (request, payload, done) => {
      if (request.routeOptions.url?.endsWith(IMPORT_ROUTE_SUFFIX)) return done(null, payload);
      done(Object.assign(new Error(`Content-Type ${request.headers['content-type'] ?? ''} is accepted only by the URL import`), { statusCode: 415 }), undefined);
    });
  }
}
