import { Inject, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import type { MercuriusDriverConfig } from '@nestjs/mercurius';
import { LoggerModule } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { AppConfig } from '@sitemaps/config';
import { createPgPool, createPrismaClient, type PrismaClient } from '@sitemaps/data';
import { postgresCheck, Readiness, redisCheck } from '@sitemaps/health';
import { announceManifestChange, manifestChannel } from '@sitemaps/storage';
import { UrlIngestService } from '@sitemaps/ingest';
import {
  BuildProducer,
  createQueue,
  createRedisConnection,
  QUEUE,
  SiteFilesProducer,
  VerificationProducer,
  type RedisConnection,
} from '@sitemaps/jobs';
import { createLogger, PlatformMetrics, ROOT_LOGGER } from '@sitemaps/observability';
import { apiLimits, type ApiLimitOverrides, type ApiLimits } from './api.limits';
import {
  ANNOUNCE_SITE_CHANGE,
  API_LIMITS,
  AUTH_FAILURE_LIMITER,
  BUILD_PRODUCER,
  SITE_FILES_PRODUCER,
  CONFIG,
  PG_POOL,
  PRISMA,
  RATE_LIMITER,
  READ_REPLICA,
  REDIS,
  TENANT_RATE_LIMITER,
  URL_INGEST,
  VERIFICATION_PRODUCER,
} from './api.tokens';
import { AccountsController } from './accounts/accounts.controller';
import { AccountsService } from './accounts/accounts.service';
import { MAILER, PASSWORD_HASHER, SIGN_IN_LIMITER } from './accounts/accounts.tokens';
import { Mailer } from './accounts/mailer';
import { MembersController } from './accounts/members.controller';
import { MembersService } from './accounts/members.service';
import { PasswordHasher } from './accounts/password-hasher';
import { ApiKeyGuard } from './auth/api-key.guard';
import { ApiKeysService } from './auth/api-keys.service';
import { DATA_PROVIDERS, readRoutingProviders, type ReplicaClients } from './data.providers';
import { RecordWritesInterceptor } from './http/record-writes.interceptor';
import { RequestAuthenticator } from './auth/request-authenticator';
import { BuildsController } from './builds/builds.controller';
import { BuildsResolver } from './builds/builds.resolver';
import { BuildsService } from './builds/builds.service';
import { HttpErrorFilter } from './errors/http-error.filter';
import { graphqlOptions } from './graphql/graphql.options';
import { JsonScalar } from './graphql/json.scalar';
import { HealthController } from './health.controller';
import { ShardsController } from './shards/shards.controller';
import { CrawlsAdminController, CrawlsController } from './crawls/crawls.controller';
import { CrawlsService } from './crawls/crawls.service';
import { CrawlsResolver } from './crawls/crawls.resolver';
import { ShardsResolver } from './shards/shards.resolver';
import { NodeResolver } from './graphql/node.resolver';
import { ShardsService } from './shards/shards.service';
import { SitesController } from './sites/sites.controller';
import { SitesResolver } from './sites/sites.resolver';
import { SitesService } from './sites/sites.service';
import { SiteLifecycle } from './sites/site-lifecycle';
import { TenantsController } from './tenants/tenants.controller';
import { TenantsResolver } from './tenants/tenants.resolver';
import { TenantsService } from './tenants/tenants.service';
import { OperatorsController } from './admin/operators.controller';
import { OperatorsService } from './admin/operators.service';
import { TenantAdminController } from './admin/tenant-admin.controller';
import { TenantAdminResolver } from './admin/tenant-admin.resolver';
import { TenantAdminService } from './admin/tenant-admin.service';
import { UrlsController } from './urls/urls.controller';
import { UrlsResolver } from './urls/urls.resolver';
import { UrlsService } from './urls/urls.service';
import { ConflictsController } from './exclusions/conflicts.controller';
import { ConflictsService } from './exclusions/conflicts.service';
import { ExclusionsController } from './exclusions/exclusions.controller';
import { ExclusionsResolver } from './exclusions/exclusions.resolver';
import { ExclusionsService } from './exclusions/exclusions.service';
import { IMPORT_CONTROLLERS, IMPORT_PROVIDERS } from './imports/imports.providers';
import { StreamedBodyParser } from './http/streamed-body.parser';
import { LocationInterceptor } from './http/location.interceptor';
import { IdempotencyInterceptor } from './http/idempotency.interceptor';
import { ValidateController } from './validate/validate.controller';
import { ValidateService } from './validate/validate.service';
import { WEBHOOK_CONTROLLERS, WEBHOOK_PROVIDERS } from './webhooks/webhooks.providers';

const BUILD_QUEUE = Symbol('BUILD_QUEUE');
const MAINTENANCE_QUEUE = Symbol('MAINTENANCE_QUEUE');

/** Shared by every API replica through Redis; while Redis is away, each process limits on its own rather than failing requests. */
function sharedLimiter(
  redis: RedisConnection,
  keyPrefix: string,
  window: { points: number; durationSeconds: number },
): RateLimiterRedis {
  const options = { points: window.points, duration: window.durationSeconds };
  return new RateLimiterRedis({
    ...options,
    storeClient: redis,
    keyPrefix,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

class ApiClients implements OnApplicationShutdown {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(BUILD_QUEUE) private readonly queue: Queue,
    @Inject(MAINTENANCE_QUEUE) private readonly maintenance: Queue,
    @Inject(VERIFICATION_PRODUCER) private readonly verification: VerificationProducer,
    @Inject(READ_REPLICA) private readonly replica: ReplicaClients | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.maintenance.close();
    await this.verification.close();
    await this.prisma.$disconnect();
    await this.pool.end();
    await this.replica?.prisma.$disconnect();
    await this.replica?.pool.end();
    this.redis.disconnect();
  }
}

@Module({})
export class ApiModule {
  /** Limits are to come from libs/config; until then, production defaults that tests may override. */
  static forRoot(
    config: AppConfig,
    limitOverrides: ApiLimitOverrides = {},
    observability: { logger: PinoLogger; metrics: PlatformMetrics } = {
      logger: createLogger('api', config.logLevel),
      metrics: new PlatformMetrics('api'),
    },
  ): DynamicModule {
    const limits = apiLimits(config.api.limits, limitOverrides);
    const { logger, metrics } = observability;
    return {
      module: ApiModule,
      imports: [
        // Nest's and the services' own lines through the app's pino logger; inside a request they
        // carry its requestId (the request's own line is written by RequestLog, on response).
        LoggerModule.forRoot({
          pinoHttp: {
            logger,
            autoLogging: false,
            quietReqLogger: true,
            customAttributeKeys: { reqId: 'requestId' },
            genReqId: (req) => (req as { id?: string }).id ?? '',
          },
        }),
        GraphQLModule.forRoot<MercuriusDriverConfig>(graphqlOptions(limits.graphql)),
      ],
      controllers: [
        HealthController,
        TenantsController,
        TenantAdminController,
        OperatorsController,
        AccountsController,
        MembersController,
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
      ],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: API_LIMITS, useValue: limits },
        { provide: PRISMA, useFactory: () => createPrismaClient(config.databaseUrl) },
        { provide: PlatformMetrics, useValue: metrics },
        { provide: ROOT_LOGGER, useValue: logger },
        {
          provide: PG_POOL,
          useFactory: () => {
            const pool = createPgPool(config.databaseUrl);
            metrics.observePool('api', pool);
            return pool;
          },
        },
        { provide: REDIS, useFactory: () => createRedisConnection(config, 'producer') },
        {
          // The primary's position: public servers reading a replica switch once it has replayed it.
          provide: ANNOUNCE_SITE_CHANGE,
          inject: [REDIS, PG_POOL],
          useFactory: (redis: RedisConnection, pool: Pool) => (siteId: string) =>
            announceManifestChange({ redis, channel: manifestChannel(config.queuePrefix) }, pool, siteId),
        },
        {
          provide: BUILD_QUEUE,
          inject: [REDIS],
          useFactory: (redis: RedisConnection) => BuildProducer.queue(redis, config.queuePrefix),
        },
        {
          provide: BUILD_PRODUCER,
          inject: [BUILD_QUEUE, REDIS],
          useFactory: (queue: Queue, redis: RedisConnection) => new BuildProducer(queue, redis, config.build),
        },
        {
          provide: MAINTENANCE_QUEUE,
          inject: [REDIS],
          useFactory: (redis: RedisConnection) => createQueue(QUEUE.maintenance, redis, config.queuePrefix),
        },
        {
          provide: SITE_FILES_PRODUCER,
          inject: [MAINTENANCE_QUEUE],
          useFactory: (queue: Queue) => new SiteFilesProducer(queue),
        },
        {
          provide: VERIFICATION_PRODUCER,
          inject: [REDIS],
          useFactory: (redis: RedisConnection) =>
            new VerificationProducer(VerificationProducer.queue(redis, config.queuePrefix)),
        },
        {
          provide: URL_INGEST,
          inject: [PG_POOL, BUILD_PRODUCER],
          useFactory: (pool: Pool, builds: BuildProducer) =>
            new UrlIngestService(pool, (siteId) => builds.afterChange(siteId)),
        },
        {
          provide: RATE_LIMITER,
          inject: [REDIS, API_LIMITS],
          useFactory: (redis: RedisConnection, { rateLimit }: ApiLimits) =>
            sharedLimiter(redis, `${config.queuePrefix}:rate-limit`, rateLimit),
        },
        {
          provide: TENANT_RATE_LIMITER,
          inject: [REDIS, API_LIMITS],
          useFactory: (redis: RedisConnection, { rateLimit, tenantRateLimit }: ApiLimits) =>
            sharedLimiter(redis, `${config.queuePrefix}:tenant-rate-limit`, {
              points: tenantRateLimit.points,
              durationSeconds: rateLimit.durationSeconds,
            }),
        },
        {
          provide: AUTH_FAILURE_LIMITER,
          inject: [REDIS, API_LIMITS],
          useFactory: (redis: RedisConnection, { authFailures }: ApiLimits) =>
            sharedLimiter(redis, `${config.queuePrefix}:auth-failures`, authFailures),
        },
        {
          provide: SIGN_IN_LIMITER,
          inject: [REDIS],
          useFactory: (redis: RedisConnection) =>
            sharedLimiter(redis, `${config.queuePrefix}:sign-in-failures`, config.accounts.signInFailures),
        },
        // Each request that mails opens its own SMTP connection: nothing to close at shutdown.
        { provide: MAILER, useFactory: () => new Mailer(config.accounts) },
        { provide: PASSWORD_HASHER, useFactory: () => new PasswordHasher() },
        {
          provide: Readiness,
          inject: [PG_POOL, REDIS],
          useFactory: (pool: Pool, redis: RedisConnection) => {
            const logger = new Logger('health');
            return new Readiness(
              { postgres: postgresCheck(pool), redis: redisCheck(redis) },
              {
                onChange: (report) =>
                  logger.warn(report.ready ? 'ready' : `not ready: ${JSON.stringify(report.failures)}`),
              },
            );
          },
        },
        ...DATA_PROVIDERS,
        ...readRoutingProviders(config, metrics),
        RequestAuthenticator,
        ApiKeysService,
        AccountsService,
        MembersService,
        TenantsService,
        TenantAdminService,
        OperatorsService,
        TenantAdminResolver,
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
        TenantsResolver,
        SitesResolver,
        UrlsResolver,
        ExclusionsResolver,
        BuildsResolver,
        ShardsResolver,
        CrawlsResolver,
        NodeResolver,
        JsonScalar,
        ...IMPORT_PROVIDERS,
        ...WEBHOOK_PROVIDERS,
        ApiClients,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        // Outermost: a tenant's write is recorded once all of it (its idempotent replay too) is done.
        { provide: APP_INTERCEPTOR, useClass: RecordWritesInterceptor },
        // In this order: a replay answers before the route (and its Location) runs at all.
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: LocationInterceptor },
      ],
    };
  }
}
