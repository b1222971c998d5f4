// The OpenAPI document describes requests and responses with the same zod schemas that validate
// them (and that type the presenters), so the document cannot drift from the code.
//
// Every body and response is a named component schema, so a generated client has a type per
// concept (`Site`, `UrlEntry`, `SitePage`): schemas named with `.meta({ id })` (or `nameSchemas`)
// keep their name wherever they are used, nested ones included; a body or response left unnamed
// is named after its operation (`SitesCreateBody`, `SitesScheduleResponse`).
import { applyDecorators, HttpCode } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiQuery, ApiResponse, type SchemaObject } from '@nestjs/swagger';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { LocationOf, type LocationOf as LocationOfFn } from '../http/location.interceptor';

const errorDetail = z
  .object({
    field: z.string().optional().describe('the input field at fault: `hostname`, `videos[0].duration`'),
    index: z.number().int().optional().describe('the entry of a list body'),
    line: z.number().int().optional().describe('the line of an uploaded file'),
    code: z.string().optional(),
    message: z.string(),
  })
  .meta({ id: 'ErrorDetail' });
export const errorBody = z
  .object({
    error: z.object({
      code: z.string().describe('stable: SITE_NOT_FOUND, VALIDATION_FAILED, …'),
      message: z.string(),
      details: z.array(errorDetail),
    }),
  })
  .meta({ id: 'Error', description: 'the one error shape of every route' });

/** Gives schemas their component names, in place: for schemas defined where no OpenAPI name belongs (libs). */
export function nameSchemas(schemas: Record<string, z.ZodType>): void {
  for (const [id, schema] of Object.entries(schemas)) {
    const existing = z.globalRegistry.get(schema);
    if (existing?.id === id) continue;
    z.globalRegistry.add(schema, { ...existing, id });
  }
}

const pages = new WeakMap<z.ZodType, z.ZodType>();
/** `{items, nextCursor}`; named `<Item>Page` when the item has a name. */
export function pageOfSchema<T extends z.ZodType>(item: T) {
  const cached = pages.get(item);
  if (cached) return cached as ReturnType<typeof page<T>>;
  const id = z.globalRegistry.get(item)?.id;
  const schema = id ? page(item).meta({ id: `${id}Page` }) : page(item);
  pages.set(item, schema);
  return schema;
}

function page<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().describe('pass as `cursor` for the next page; null on the last'),
  });
}

const COMPONENTS_REF = '#/components/schemas/';
const componentSchemas: Record<string, SchemaObject> = {};

/** The named schemas the decorators met, for `components.schemas`. */
export function openApiComponents(): Record<string, SchemaObject> {
  return { ...componentSchemas };
}

function addComponent(name: string, schema: SchemaObject): void {
  const existing = componentSchemas[name];
  if (existing && !isDeepStrictEqual(existing, schema)) {
    throw new Error(
      `two different schemas are named "${name}" in the OpenAPI document (an input and an output? name them apart)`,
    );
  }
  componentSchemas[name] = schema;
}

/** JSON Schema 2020-12, as OpenAPI 3.1 takes it: `null` is a type, `$ref` may have siblings. */
export function openApiSchema(schema: z.ZodType, io: 'input' | 'output'): SchemaObject {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    // Dates leave the API as ISO strings.
    override: (ctx) => {
      if (ctx.zodSchema._zod.def.type === 'date')
        Object.assign(ctx.jsonSchema, { type: 'string', format: 'date-time' });
    },
  }) as SchemaObject & { $defs?: Record<string, SchemaObject>; $schema?: string };
  const {
    $defs,
    $schema: _dialect,
    ...root
  } = JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', `"${COMPONENTS_REF}`)) as typeof json;
  for (const [name, definition] of Object.entries($defs ?? {})) addComponent(name, definition);
  return root;
}

/** The schema as a reference to its component, named `fallbackName` when it has no name of its own. */
function componentRef(schema: z.ZodType, io: 'input' | 'output', fallbackName: string): SchemaObject {
  const json = openApiSchema(schema, io);
  if ('$ref' in json || json.type !== 'object') return json;
  addComponent(fallbackName, json);
  return { $ref: `${COMPONENTS_REF}${fallbackName}` } as SchemaObject;
}

/** `SitesController.create` → `SitesCreate`. */
function operationName(target: object, key: string | symbol): string {
  const resource = target.constructor.name.replace(/Controller$/, '');
  const method = String(key);
  return `${resource}${method.charAt(0).toUpperCase()}${method.slice(1)}`;
}

export const ZodBody =
  (schema: z.ZodType, description?: string): MethodDecorator =>
  (target, key, descriptor) =>
    ApiBody({
      schema: componentRef(schema, 'input', `${operationName(target, key)}Body`),
      ...(description ? { description } : {}),
    })(target, key, descriptor);

/** One query parameter per property of the object schema. */
export function ZodQuery(schema: z.ZodObject) {
  return applyDecorators(
    ...Object.entries(schema.shape).map(([name, property]) => {
      const json = openApiSchema(property as z.ZodType, 'input');
      return ApiQuery({
        name,
        required: !(property as z.ZodType).safeParse(undefined).success,
        schema: json,
        ...(json.description ? { description: json.description } : {}),
      });
    }),
  );
}

export const ZodResponse =
  (status: number, schema: z.ZodType | null, description = 'success'): MethodDecorator =>
  (target, key, descriptor) => {
    if (status === 201 || status === 202)
      throw new Error(
        `${operationName(target, key)}: a ${status} answer carries a Location: declare it with @ZodCreated`,
      );
    return ApiResponse({
      status,
      description,
      ...(schema ? { schema: componentRef(schema, 'output', `${operationName(target, key)}Response`) } : {}),
    })(target, key, descriptor);
  };

/** A 201 (created) or 202 (queued) answer with `Location`: the path of what it created, from the result and path parameters. */
export const ZodCreated =
  <R>(
    status: 201 | 202,
    schema: z.ZodType,
    locationOf: LocationOfFn<R>,
    description = status === 201 ? 'created' : 'queued',
  ): MethodDecorator =>
  (target, key, descriptor) =>
    applyDecorators(
      HttpCode(status),
      LocationOf(locationOf),
      ApiResponse({
        status,
        description,
        schema: componentRef(schema, 'output', `${operationName(target, key)}Response`),
        headers: { Location: { description: 'the path of what was created', schema: { type: 'string' } } },
      }),
    )(target, key, descriptor);

export const UPLOAD_EXTENSION = 'x-upload-body';
/**
 * A body the route streams itself (an upload): a file in any of `contentTypes`, and, when given,
 * a JSON alternative. Nest's body decorators give every content type the JSON schema.
 */
export const ApiUploadBody =
  (contentTypes: string[], description: string, json?: z.ZodType): MethodDecorator =>
  (target, key, descriptor) => {
    const content: Record<string, { schema: SchemaObject }> = {};
    if (json)
      content['application/json'] = { schema: componentRef(json, 'input', `${operationName(target, key)}Body`) };
    for (const type of contentTypes) content[type] = { schema: { type: 'string', format: 'binary' } };
    return ApiExtension(UPLOAD_EXTENSION, { required: true, description, content })(target, key, descriptor);
  };

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid input (VALIDATION_FAILED, MALFORMED_BODY, INVALID_CURSOR, …)',
  401: 'missing, unknown or revoked API key (UNAUTHENTICATED), or its account suspended (TENANT_SUSPENDED)',
  403: 'the key lacks the scope (INSUFFICIENT_SCOPE), or a tenant quota is reached (QUOTA_SITES, QUOTA_URLS)',
  404: 'no such object for this tenant',
  409: 'conflict (HOSTNAME_TAKEN)',
  413: 'request too large (PAYLOAD_TOO_LARGE, TOO_MANY_ENTRIES)',
  415: 'unsupported content type',
  422: 'the Idempotency-Key was used with another request (IDEMPOTENCY_KEY_REUSED)',
  429: 'rate limit exceeded; see Retry-After',
  500: 'unexpected server error',
  503: 'a service the API depends on is unavailable',
};

/** The error schema, registered as a component; for responses the document adds to every route. */
export function errorSchemaRef(): SchemaObject {
  return openApiSchema(errorBody, 'output');
}

/**
 * Every authenticated route can also answer 401, 403 and 429 (the document adds those to every
 * route that is not public); list the other statuses a route may give.
 */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(
    ...[...new Set([400, ...statuses])].map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status] ?? 'error', schema: errorSchemaRef() }),
    ),
  );
