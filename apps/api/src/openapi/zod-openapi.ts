// The OpenAPI document describes requests and responses with the same zod schemas that validate
// them (and that type the presenters), so the document cannot drift from the code.
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiQuery, ApiResponse, type SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';

const errorDetail = z.object({
  field: z.string().optional(),
  index: z.number().int().optional(),
  line: z.number().int().optional(),
  code: z.string().optional(),
  message: z.string(),
});
export const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.array(errorDetail) }) });

export function pageOfSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable().describe('pass as `cursor` for the next page; null on the last') });
}

export function openApiSchema(schema: z.ZodType, io: 'input' | 'output'): SchemaObject {
  return z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io,
    unrepresentable: 'any',
    // Dates leave the API as ISO strings.
    override: (ctx) => {
      if (ctx.zodSchema._zod.def.type === 'date') Object.assign(ctx.jsonSchema, { type: 'string', format: 'date-time' });
    },
  }) as SchemaObject;
}

export const ZodBody = (schema: z.ZodType, description?: string) => ApiBody({ schema: openApiSchema(schema, 'input'), ...(description ? { description } : {}) });

/** One query parameter per property of the object schema. */
export function ZodQuery(schema: z.ZodObject) {
  return applyDecorators(
    ...Object.entries(schema.shape).map(([name, property]) =>
      ApiQuery({ name, required: !(property as z.ZodType).safeParse(undefined).success, schema: openApiSchema(property as z.ZodType, 'input') }),
    ),
  );
}

export const ZodResponse = (status: number, schema: z.ZodType | null, description = 'success') =>
  ApiResponse({ status, description, ...(schema ? { schema: openApiSchema(schema, 'output') } : {}) });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …)',
  401: 'missing, unknown or revoked API key',
  403: 'the key lacks the scope, or a tenant quota (QUOTA_SITES)',
  404: 'no such object for this tenant',
  409: 'conflict (HOSTNAME_TAKEN)',
  413: 'request too large (PAYLOAD_TOO_LARGE, TOO_MANY_ENTRIES)',
  422: 'tenant quota exceeded (QUOTA_URLS)',
  429: 'rate limit exceeded; see Retry-After',
};

/** Every authenticated route can answer 401 and 429; list the other statuses a route may give. */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(
    ...[...new Set([400, 401, 429, ...statuses])].map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status] ?? 'error', schema: openApiSchema(errorBody, 'output') }),
    ),
  );
