// The OpenAPI document: built from the controllers, then given the conventions every route
// follows, so a route added anywhere complies without doing anything for it:
// - operation ids `<resource>.<method>` from the controller and method names (`sites.create`);
// - a summary (written with @ApiOperation, or made from the method name);
// - the bearer requirement on every route but those marked @Public() (`security: []`);
// - the errors every route can give (400, 500; 401, 403 and 429 when authenticated) in the one error shape;
// - named component schemas (zod-openapi.ts).
// `npm run openapi:lint` (and openapi.document.spec.ts) hold it to Redocly's recommended rules.
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { platformVersion } from '@sitemaps/config';
import { ERROR_DESCRIPTIONS, errorSchemaRef, openApiComponents, UPLOAD_EXTENSION } from './zod-openapi';

export const PUBLIC_EXTENSION = 'x-public';
const SECURITY_SCHEME = 'bearer';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const TAGS: Record<string, string> = {
  health: 'Liveness of the API and its database',
  tenants: 'Tenants and their API keys (tenants themselves: platform key only)',
  sites: 'Sites and their settings: hostname, scheme, defaults, robots.txt, schedule',
  urls: 'URL entries of a site: upsert, delete, list',
  imports: 'Bulk imports: NDJSON or CSV uploads, and existing sitemaps fetched from the web',
  builds: 'Builds: render the dirty shards and publish the sitemap index',
  shards: 'The sitemap files of a site, with their sizes and fill',
  validate: 'Check a sitemap or sitemap index against the XSDs and the protocol',
};

/** `SitesController`, `create` → `sites.create`; `ApiKeysController` → `apiKeys.…`. */
export function operationId(controllerKey: string, methodKey: string): string {
  const resource = controllerKey.replace(/Controller$/, '');
  return `${resource.charAt(0).toLowerCase()}${resource.slice(1)}.${methodKey}`;
}

/** `createKey` → `Create key`. */
function summaryOf(methodKey: string): string {
  return methodKey.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Sitemaps admin API')
    .setDescription(
      'Tenants, API keys, sites, URLs, shards and builds. Authenticate with `Authorization: Bearer <key>`. ' +
        'Every list is cursor-paginated (`cursor`, `limit`); every error is `{error: {code, message, details[]}}`. ' +
        'The same operations are available over GraphQL at /graphql.',
    )
    .setVersion(platformVersion())
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    .addServer('/', 'the API that serves this document')
    .addSecurity(SECURITY_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      description:
        'an API key: the platform key (ADMIN_API_KEY) for tenants, a tenant key for everything else. Opaque, not a JWT.',
    })
    .addSecurityRequirements(SECURITY_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: operationId,
    // Tagged below by resource, as operation ids are (`probes`, not `Probes`).
    autoTagControllers: false,
  });
  // The schemas are JSON Schema 2020-12 (zod-openapi.ts), which is OpenAPI 3.1's.
  return withConventions({ ...document, openapi: '3.1.0' });
}

function withConventions(document: OpenAPIObject): OpenAPIObject {
  const error = errorSchemaRef();
  const usedTags = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const extensions = operation as unknown as Record<string, unknown>;
      const [resource = 'api', name = method] = operation.operationId?.split('.') ?? [];
      // Written ones too, so every summary reads the same in a generated client or the UI.
      operation.summary = capitalized(operation.summary ?? summaryOf(name));
      if (!operation.tags?.length) operation.tags = [resource];
      for (const tag of operation.tags ?? []) usedTags.add(tag);
      const responses = operation.responses;
      if (extensions[UPLOAD_EXTENSION]) {
        operation.requestBody = extensions[UPLOAD_EXTENSION] as typeof operation.requestBody;
        delete extensions[UPLOAD_EXTENSION];
      }
      if (extensions[PUBLIC_EXTENSION]) {
        delete extensions[PUBLIC_EXTENSION];
        operation.security = [];
      } else {
        for (const status of [401, 403, 429]) {
          responses[status] ??= {
            description: ERROR_DESCRIPTIONS[status]!,
            content: { 'application/json': { schema: error } },
          };
        }
      }
      // Any request can be malformed (two Host headers, a bad URL): MALFORMED_REQUEST.
      responses[400] ??= {
        description: 'malformed request (MALFORMED_REQUEST)',
        content: { 'application/json': { schema: error } },
      };
      responses[500] ??= { description: ERROR_DESCRIPTIONS[500]!, content: { 'application/json': { schema: error } } };
    }
  }
  document.tags = [...usedTags].sort().map((name) => ({ name, description: TAGS[name] ?? name }));
  // Sorted: the committed document (libs/client/openapi.json) changes only where the API does.
  const schemas = { ...document.components?.schemas, ...openApiComponents() };
  document.components = {
    ...document.components,
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
  };
  return document;
}
