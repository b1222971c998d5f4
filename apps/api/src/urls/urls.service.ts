import { Inject, Injectable } from '@nestjs/common';
import { ReadRouter } from '@sitemaps/data';
import { DomainError, exclusionPatterns as exclusionPatternsOf, invalid } from '@sitemaps/domain';
import { ndjsonExport, type UpsertResult, type UrlIngestService } from '@sitemaps/ingest';
import { PlatformMetrics } from '@sitemaps/observability';
import { URL_INGEST } from '@sitemaps/core';
import { bigintKey, decodeCursor, pageOf, type Page, type PageRequest } from '../common/pagination';
import { ConflictsService } from '../exclusions/conflicts.service';
import { SitesService } from '../sites/sites.service';
import { MAX_ENTRIES_PER_REQUEST, type UrlExportQuery, type UrlFilter, type UrlView } from './url.schemas';

@Injectable()
export class UrlsService {
  constructor(
    private readonly sites: SitesService,
    @Inject(URL_INGEST) private readonly ingest: UrlIngestService,
    private readonly reads: ReadRouter,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    private readonly conflicts: ConflictsService,
  ) {}

  /**
   * Upsert by loc. Invalid entries are reported by index; the valid ones are stored. A batch that
   * would take the tenant's live URLs past tenants.max_urls is refused whole (403 QUOTA_URLS,
   * nothing stored), naming the entries past the limit, so the client can resend the part that
   * fits; the check runs in the writing transaction (see QuotaService), so it is exact under
   * concurrent writes.
   */
  async upsert(tenantId: string, siteId: string, entries: unknown): Promise<UpsertResult> {
    const site = await this.sites.get(tenantId, siteId);
    if (!Array.isArray(entries))
      throw invalid('VALIDATION_FAILED', 'body must be a JSON array of URL entries', [
        { field: 'body', message: 'expected an array' },
      ]);
    if (entries.length > MAX_ENTRIES_PER_REQUEST) {
      throw new DomainError(
        'too_large',
        'TOO_MANY_ENTRIES',
        `at most ${MAX_ENTRIES_PER_REQUEST} entries per request; use the import endpoint for more`,
      );
    }
    const result = await this.ingest.upsert(site, entries);
    this.metrics.recordIngest('api', result.upserted, result.errors.length);
    // Stored all the same: robots.txt, exclusion and clock conflicts come back as warnings.
    const conflicts = await this.conflicts.onWrite(site, entries, new Set(result.errors.map((error) => error.index)));
    return conflicts.length > 0 ? { ...result, warnings: [...result.warnings, ...conflicts] } : result;
  }

  async delete(
    tenantId: string,
    siteId: string,
    locs: readonly string[],
  ): Promise<{ deleted: number; notFound: string[] }> {
    return this.ingest.delete(await this.sites.get(tenantId, siteId), locs);
  }

  /**
   * The site's live URLs as NDJSON import lines, streamed from a cursor: the site is checked
   * before the first byte, so a wrong site is still a 404.
   */
  async export(tenantId: string, siteId: string, query: UrlExportQuery): Promise<AsyncGenerator<string>> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    return ndjsonExport(reader.urls.exportBatches(site.id, { changedSince: query.changedSince }));
  }

  /** Live URLs in id order (the order they were first stored), with their hreflang clusters. */
  async list(tenantId: string, siteId: string, filter: UrlFilter, page: PageRequest): Promise<Page<UrlView>> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    const after = decodeCursor(page.after, bigintKey);
    const exclusionPatterns = exclusionPatternsOf(await reader.urlExclusions.rules(site.id));
    const rows = await reader.urls.list(site.id, filter, { afterId: after, limit: page.first + 1, exclusionPatterns });
    return pageOf(
      rows,
      page.first,
      (row) => row.id,
      (row) => ({
        loc: row.loc,
        section: row.section || null,
        lastmod: row.lastmod,
        changefreq: row.changefreq,
        priority: row.priority,
        alternates: row.alternates ?? [],
        // jsonb the ingest wrote from the normalized entry (SitemapUrl): the shapes UrlView names.
        images: (row.images ?? []) as UrlView['images'],
        videos: (row.videos ?? []) as UrlView['videos'],
        news: row.news as UrlView['news'],
        excluded: row.excluded,
        updatedAt: row.updatedAt,
      }),
    );
  }
}
