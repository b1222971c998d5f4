import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Readable } from 'node:stream';
import type { AppConfig } from '@sitemaps/config';
import { ReadRouter, type Import, type ImportRepository } from '@sitemaps/data';
import { importFinishedEvent, notFound } from '@sitemaps/domain';
import { importUpload, type ImportFormat, type ImportMode, type UrlImportService } from '@sitemaps/ingest';
import { importSitemapsPayload, JOB, jobId, type WebhookProducer } from '@sitemaps/jobs';
import { PlatformMetrics } from '@sitemaps/observability';
import { CONFIG, WEBHOOK_PRODUCER } from '@sitemaps/core';
import {
  bigintKey,
  createdKey,
  createdKeyOf,
  decodeCursor,
  pageOf,
  uuidKey,
  type Page,
  type PageRequest,
} from '../common/pagination';
import { SitesService } from '../sites/sites.service';
import type { ImportView, RejectionView, WarningView } from './import.schemas';
import { IMPORT_QUEUE, URL_IMPORTS } from './imports.tokens';

type ImportRow = Import;

@Injectable()
export class ImportsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('imports');

  constructor(
    private readonly sites: SitesService,
    private readonly reads: ReadRouter,
    @Inject(URL_IMPORTS) private readonly imports: UrlImportService,
    @Inject(IMPORT_QUEUE) private readonly queue: Queue,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(WEBHOOK_PRODUCER) private readonly webhooks: WebhookProducer,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
  ) {}

  /**
   * Imports a previous process left running when it died are failed at once. Housekeeping:
   * if it cannot run now, reading such an import (GET) fails it later.
   */
  async onApplicationBootstrap(): Promise<void> {
    const failed = await this.imports.sweep().catch((error: unknown) => {
      this.logger.warn(
        `could not check for interrupted imports at start: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 0;
    });
    if (failed > 0) this.logger.warn(`marked ${failed} interrupted import(s) failed`);
  }

  /** Streams the body through the import; answers when the whole upload is stored. */
  async upload(
    tenantId: string,
    siteId: string,
    upload: { format: ImportFormat; mode: ImportMode; body: Readable; contentEncoding: string | undefined },
  ) {
    const site = await this.sites.get(tenantId, siteId);
    const result = await importUpload(this.imports, site, upload, {
      maxBytes: this.config.import.maxTotalBytes,
      maxRatio: this.config.import.maxCompressionRatio,
    });
    this.metrics.recordIngest('upload', result.stored, result.rejected);
    // The import is committed; a failure to announce it is logged, never the upload's answer.
    const event = importFinishedEvent(site.id, 'upload', result);
    if (event)
      await this.webhooks
        .emit({ siteId: site.id }, event)
        .catch((error: Error) =>
          this.logger.error(`could not emit import.finished for import ${result.id}: ${error.message}`),
        );
    const { id, error: _error, ...counters } = result;
    return { importId: id, ...counters };
  }

  /** Creates the import (queued) and its job; a worker fetches and imports the sitemaps. */
  async importSitemaps(tenantId: string, siteId: string, url: string) {
    const site = await this.sites.get(tenantId, siteId);
    const importId = await this.imports.enqueue(site.id, {
      source: 'sitemaps',
      format: 'sitemap',
      mode: 'upsert',
      sourceUrl: url,
    });
    try {
      await this.queue.add(JOB.importSitemaps, importSitemapsPayload.parse({ v: 1, siteId: site.id, importId }), {
        jobId: jobId.importSitemaps(importId),
      });
    } catch (error) {
      // No job will ever claim it: say so on the import rather than leave it queued.
      await this.reads.writer.imports.markFailed(importId, 'could not be queued');
      throw error;
    }
    return { importId, status: 'queued' as const };
  }

  /** Newest first. */
  async list(tenantId: string, siteId: string, page: PageRequest): Promise<Page<ImportView>> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    const before = decodeCursor(page.after, createdKey);
    const rows = await reader.imports.listForSite(site.id, { before, limit: page.first + 1 });
    return pageOf(rows, page.first, createdKeyOf, presentImport);
  }

  async get(tenantId: string, siteId: string, importId: string): Promise<ImportView> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    let row = await this.find(reader.imports, site.id, importId);
    // A running import whose process died is failed here (on the primary) rather than left running forever.
    if (row.status === 'running' && (await this.imports.sweep(site.id)) > 0)
      row = await this.find(this.reads.writer.imports, site.id, importId);
    return presentImport(row);
  }

  /** In line order; a cursor continues after the last rejection seen. */
  async rejections(
    tenantId: string,
    siteId: string,
    importId: string,
    page: PageRequest,
  ): Promise<Page<RejectionView>> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    await this.find(reader.imports, site.id, importId);
    const after = decodeCursor(page.after, bigintKey);
    const rows = await reader.imports.rejections(importId, { afterId: after, limit: page.first + 1 });
    return pageOf(
      rows,
      page.first,
      (row) => String(row.id),
      (row) => ({ line: row.line, code: row.code, field: row.field, reason: row.reason, source: row.source }),
    );
  }

  /** In line order, as rejections: repairs made to lines that were stored. */
  async warnings(tenantId: string, siteId: string, importId: string, page: PageRequest): Promise<Page<WarningView>> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    await this.find(reader.imports, site.id, importId);
    const after = decodeCursor(page.after, bigintKey);
    const rows = await reader.imports.warnings(importId, { afterId: after, limit: page.first + 1 });
    return pageOf(
      rows,
      page.first,
      (row) => String(row.id),
      (row) => ({ line: row.line, code: row.code, field: row.field, reason: row.reason, source: row.source }),
    );
  }

  private async find(imports: ImportRepository, siteId: string, importId: string): Promise<ImportRow> {
    const row = uuidKey.safeParse(importId).success ? await imports.findForSite(siteId, importId) : null;
    if (!row) throw notFound('import', importId);
    return row;
  }
}

function presentImport(row: ImportRow): ImportView {
  return {
    id: row.id,
    siteId: row.siteId,
    source: row.source as ImportView['source'],
    format: row.format as ImportView['format'],
    mode: row.mode as ImportView['mode'],
    status: row.status as ImportView['status'],
    sourceUrl: row.sourceUrl,
    linesRead: row.linesRead,
    stored: row.stored,
    rejected: row.rejected,
    warnings: row.warnings,
    changed: row.changed,
    deleted: row.deleted,
    error: row.error,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}
