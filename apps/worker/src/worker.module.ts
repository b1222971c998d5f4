// The worker: CoreModule's shared clients, and each area's processors on top.
import { Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import type { AppConfig } from '@sitemaps/config';
import { CoreModule } from '@sitemaps/core';
import type { PlatformMetrics } from '@sitemaps/observability';
import { BUILD_PROVIDERS } from './builds/builds.providers';
import { WorkerHealth } from './http/worker-health';
import { WorkerHttpServer } from './http/worker-http.server';
import { WorkerMetrics } from './http/worker.metrics';
import { IMPORT_PROVIDERS } from './imports/import.providers';
import { INDEXNOW_PROVIDERS } from './indexnow/indexnow.providers';
import { JobWorkers } from './job-workers';
import { MAIL_PROVIDERS } from './mail/mail.providers';
import { MAINTENANCE_PROVIDERS } from './maintenance/maintenance.providers';
import { VERIFICATION_PROVIDERS } from './verification/verification.providers';
import { WEBHOOK_PROVIDERS } from './webhooks/webhook.providers';

@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, observability: { logger: Logger; metrics: PlatformMetrics }): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot({ config, role: 'worker', ...observability }),
        // Nest's and the processors' lines through the app's pino logger (no HTTP: no middleware).
        LoggerModule.forRoot({ pinoHttp: { logger: observability.logger } }),
      ],
      providers: [
        JobWorkers,
        ...BUILD_PROVIDERS,
        ...MAINTENANCE_PROVIDERS,
        ...IMPORT_PROVIDERS,
        ...INDEXNOW_PROVIDERS,
        ...WEBHOOK_PROVIDERS,
        ...VERIFICATION_PROVIDERS,
        ...MAIL_PROVIDERS,
        WorkerHttpServer,
        WorkerHealth,
        WorkerMetrics,
      ],
    };
  }
}
