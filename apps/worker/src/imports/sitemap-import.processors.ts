// Runs sitemaps imports (queue `import`): the API created the import row and the job; the
// importer claims the row, so a doubled or retried job never runs one import twice at once.
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { SiteRepository } from '@sitemaps/data';
import type { SitemapImporter, UrlImportService } from '@sitemaps/ingest';
import { importFinishedEvent } from '@sitemaps/domain';
import { importSitemapsPayload, QUEUE, type ImportSitemapsPayload, type WebhookProducer } from '@sitemaps/jobs';
import { PlatformMetrics, redactUrls } from '@sitemaps/observability';
import { JobWorkers } from '../job-workers';
import { WEBHOOK_PRODUCER } from '@sitemaps/core';
import { SITEMAP_IMPORTER, URL_IMPORTS } from './import.tokens';

@Injectable()
export class SitemapImportProcessors implements OnModuleInit {
  private readonly logger = new Logger('imports');

  constructor(
    private readonly workers: JobWorkers,
    private readonly sites: SiteRepository,
    @Inject(URL_IMPORTS) private readonly imports: UrlImportService,
    @Inject(SITEMAP_IMPORTER) private readonly importer: SitemapImporter,
    @Inject(WEBHOOK_PRODUCER) private readonly webhooks: WebhookProducer,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.workers.serves(QUEUE.import)) return;
    // Imports a previous process left running when it died are failed (their jobs retry them).
    await this.imports.sweep();
    this.workers.serve(QUEUE.import, importSitemapsPayload, (data) => this.importSitemaps(data), { concurrency: 1 });
  }

  async importSitemaps({ siteId, importId }: ImportSitemapsPayload) {
    const site = await this.sites.findById(siteId);
    if (!site) return { skipped: 'site deleted' };
    const result = await this.importer.run(site, importId);
    if (!result) return { skipped: 'completed, or running elsewhere' };
    this.metrics.recordIngest('sitemap', result.stored, result.rejected);
    this.logger.log(
      `import ${importId} ${result.status}: ${result.stored} stored, ${result.rejected} rejected, ${result.warnings} repaired${result.error ? ` (${redactUrls(result.error)})` : ''}`,
    );
    const event = importFinishedEvent(site.id, 'sitemaps', result);
    // After the import's own commit.
    // A failure here is logged, not retried: a retried job finds the import completed and stops.
    if (event)
      await this.webhooks
        .emit({ siteId: site.id }, event)
        .catch((error: Error) =>
          this.logger.error(`could not emit import.finished for import ${importId}: ${error.message}`),
        );
    return { status: result.status, stored: result.stored, rejected: result.rejected, warnings: result.warnings };
  }
}
