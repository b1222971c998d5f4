// Two routes take documents of any size as streams: the URL import (NDJSON, CSV) and the sitemap
// validator (XML). For their content types fastify hands the handler the raw request stream
// instead of reading the body; each reads and bounds it itself. Other routes refuse those types.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { httpError } from './json-body.parser';

export const IMPORT_ROUTE_SUFFIX = '/urls/import';
export const VALIDATE_ROUTE = '/v1/validate';

const GZIP_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];
const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines'];
const XML_TYPES = ['application/xml', 'text/xml'];

/** Which streamed types each route takes. */
const STREAMED_ROUTES = [
  {
    name: 'the URL import',
    matches: (url: string) => url.endsWith(IMPORT_ROUTE_SUFFIX),
    types: [...NDJSON_TYPES, 'text/csv', ...GZIP_TYPES],
  },
  {
    name: 'the sitemap validator',
    matches: (url: string) => url === VALIDATE_ROUTE,
    types: [...XML_TYPES, ...GZIP_TYPES],
  },
];

const mediaType = (contentType: string | undefined) => contentType?.split(';')[0]?.trim().toLowerCase();

/** ndjson or csv for a Content-Type of the import, if it names one. */
export function formatOfContentType(contentType: string | undefined): 'ndjson' | 'csv' | undefined {
  const type = mediaType(contentType);
  if (type === 'text/csv') return 'csv';
  if (type && (NDJSON_TYPES.includes(type) || GZIP_TYPES.includes(type))) return 'ndjson';
  return undefined;
}

@Injectable()
export class StreamedBodyParser implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const types = [...new Set(STREAMED_ROUTES.flatMap((route) => route.types))].filter(
      (type) => !fastify.hasContentTypeParser(type),
    );
    fastify.addContentTypeParser(types, (request, payload, done) => {
      const type = mediaType(request.headers['content-type']) ?? '';
      const route = STREAMED_ROUTES.find((candidate) => candidate.matches(request.routeOptions.url ?? ''));
      if (route?.types.includes(type)) return done(null, payload);
      const takers = STREAMED_ROUTES.filter((candidate) => candidate.types.includes(type)).map(
        (candidate) => candidate.name,
      );
      done(httpError(415, `Content-Type ${type} is accepted only by ${takers.join(' and ')}`), undefined);
    });
  }
}
