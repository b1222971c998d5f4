// The api: CoreModule's shared clients, then each area's routes, resolvers and services, and the
// cross-cutting guard, filter and interceptors.
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import type { MercuriusDriverConfig } from '@nestjs/mercurius';
import { LoggerModule } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import type { AppConfig } from '@sitemaps/config';
import { CoreModule } from '@sitemaps/core';
import { createLogger, PlatformMetrics } from '@sitemaps/observability';
import { ACCOUNT_CONTROLLERS, ACCOUNT_PROVIDERS } from './accounts/accounts.providers';
import { AccountsResolver } from './accounts/accounts.resolver';
import { apiLimits, type ApiLimitOverrides } from './api.limits';
import { LIMITER_PROVIDERS, PRODUCER_PROVIDERS, READINESS_PROVIDER } from './api.providers';
import { API_LIMITS } from './api.tokens';
import { ApiKeyGuard } from './auth/api-key.guard';
import { ApiKeysService } from './auth/api-keys.service';
import { RequestAuthenticator } from './auth/request.authenticator';
import { BuildsController } from './builds/builds.controller';
import { BuildsResolver } from './builds/builds.resolver';
import { BuildsService } from './builds/builds.service';
import { CrawlsAdminController, CrawlsController } from './crawls/crawls.controller';
import { CrawlsResolver } from './crawls/crawls.resolver';
import { CrawlsService } from './crawls/crawls.service';
import { HttpErrorFilter } from './errors/http-error.filter';
import { ConflictsController } from './exclusions/conflicts.controller';
import { ConflictsService } from './exclusions/conflicts.service';
import { ExclusionsController } from './exclusions/exclusions.controller';
import { ExclusionsResolver } from './exclusions/exclusions.resolver';
import { ExclusionsService } from './exclusions/exclusions.service';
import { graphqlOptions } from './graphql/graphql.options';
import { JsonScalar } from './graphql/json.scalar';
import { NodeResolver } from './graphql/node.resolver';
import { HealthController } from './health.controller';
import { IdempotencyInterceptor } from './http/idempotency.interceptor';
import { LocationInterceptor } from './http/location.interceptor';
import { RecordWritesInterceptor } from './http/record-writes.interceptor';
import { StreamedBodyParser } from './http/streamed-body.parser';
import { IMPORT_CONTROLLERS, IMPORT_PROVIDERS } from './imports/imports.providers';
import { readRoutingProviders } from './read-routing.providers';
import { ShardsController } from './shards/shards.controller';
import { ShardsResolver } from './shards/shards.resolver';
import { ShardsService } from './shards/shards.service';
import { SiteLifecycle } from './sites/site-lifecycle';
import { SitesController } from './sites/sites.controller';
import { SitesResolver } from './sites/sites.resolver';
import { SitesService } from './sites/sites.service';
import { OperatorsController } from './admin/operators.controller';
import { OperatorsService } from './admin/operators.service';
import { TenantAdminController } from './admin/tenant-admin.controller';
import { TenantAdminResolver } from './admin/tenant-admin.resolver';
import { TenantAdminService } from './admin/tenant-admin.service';
import { TenantsController } from './tenants/tenants.controller';
import { TenantsResolver } from './tenants/tenants.resolver';
import { TenantsService } from './tenants/tenants.service';
import { UrlsController } from './urls/urls.controller';
import { UrlsResolver } from './urls/urls.resolver';
import { UrlsService } from './urls/urls.service';
import { ValidateController } from './validate/validate.controller';
import { ValidateService } from './validate/validate.service';
import { WEBHOOK_CONTROLLERS, WEBHOOK_PROVIDERS } from './webhooks/webhooks.providers';

const CONTROLLERS = [
  HealthController,
  TenantsController,
  TenantAdminController,
  OperatorsController,
  ...ACCOUNT_CONTROLLERS,
  SitesController,
  UrlsController,
  ExclusionsController,
  ConflictsController,
  BuildsController,
  ShardsController,
  CrawlsController,
  CrawlsAdminController,
  ValidateController,
  ...IMPORT_CONTROLLERS,
  ...WEBHOOK_CONTROLLERS,
];

const SERVICES = [
  RequestAuthenticator,
  ApiKeysService,
  TenantsService,
  TenantAdminService,
  OperatorsService,
  SitesService,
  SiteLifecycle,
  UrlsService,
  ExclusionsService,
  ConflictsService,
  BuildsService,
  ShardsService,
  CrawlsService,
  ValidateService,
  StreamedBodyParser,
  ...ACCOUNT_PROVIDERS,
  ...IMPORT_PROVIDERS,
  ...WEBHOOK_PROVIDERS,
];

const RESOLVERS = [
  TenantsResolver,
  TenantAdminResolver,
  SitesResolver,
  UrlsResolver,
  ExclusionsResolver,
  BuildsResolver,
  ShardsResolver,
  CrawlsResolver,
  NodeResolver,
  AccountsResolver,
  JsonScalar,
];

const CROSS_CUTTING = [
  { provide: APP_GUARD, useClass: ApiKeyGuard },
  { provide: APP_FILTER, useClass: HttpErrorFilter },
  // Outermost: a tenant's write is recorded once all of it (its idempotent replay too) is done.
  { provide: APP_INTERCEPTOR, useClass: RecordWritesInterceptor },
  // In this order: a replay answers before the route (and its Location) runs at all.
  { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  { provide: APP_INTERCEPTOR, useClass: LocationInterceptor },
];

@Module({})
export class ApiModule {
  /** Production limits come from config; tests may tighten them (`limitOverrides`). */
  static forRoot(
    config: AppConfig,
    limitOverrides: ApiLimitOverrides = {},
    observability: { logger: PinoLogger; metrics: PlatformMetrics } = {
      logger: createLogger('api', config.logLevel),
      metrics: new PlatformMetrics('api'),
    },
  ): DynamicModule {
    const limits = apiLimits(config.api.limits, limitOverrides);
    return {
      module: ApiModule,
      imports: [
        CoreModule.forRoot({ config, role: 'api', ...observability }),
        // Nest's and the services' own lines through the app's pino logger; inside a request they
        // carry its requestId (the request's own line is written by RequestLog, on response).
        LoggerModule.forRoot({
          pinoHttp: {
            logger: observability.logger,
            autoLogging: false,
            quietReqLogger: true,
            customAttributeKeys: { reqId: 'requestId' },
            genReqId: (req) => (req as { id?: string }).id ?? '',
          },
        }),
        GraphQLModule.forRoot<MercuriusDriverConfig>(graphqlOptions(limits.graphql)),
      ],
      controllers: CONTROLLERS,
      providers: [
        { provide: API_LIMITS, useValue: limits },
        ...PRODUCER_PROVIDERS,
        ...LIMITER_PROVIDERS,
        READINESS_PROVIDER,
        ...readRoutingProviders(config, observability.metrics),
        ...SERVICES,
        ...RESOLVERS,
        ...CROSS_CUTTING,
      ],
    };
  }
}
