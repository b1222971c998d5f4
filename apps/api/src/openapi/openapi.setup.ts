import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** Serves the OpenAPI document built from the controllers: UI at /docs, JSON at /docs-json. */
export function setupOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Sitemaps admin API')
    .setDescription(
      'Tenants, API keys, sites, URLs, shards and builds. Authenticate with `Authorization: Bearer <key>`. ' +
        'Every list is cursor-paginated (`cursor`, `limit`); every error is `{error: {code, message, details[]}}`. ' +
        'The same operations are available over GraphQL at /graphql.',
    )
    .setVersion('1')
    .addBearerAuth()
    .addSecurityRequirements('bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml' });
}
