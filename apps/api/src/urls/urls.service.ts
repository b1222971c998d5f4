import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DomainError, invalid } from '@sitemaps/domain';
import { prepareEntry, type UpsertResult, type UrlIngestService } from '@sitemaps/ingest';
import { PG_POOL, URL_INGEST } from '../api.tokens';
import { bigintKey, decodeCursor, pageOf, type Page, type PageRequest } from '../common/pagination';
import { SitesService, type SiteRow } from '../sites/sites.service';
import { MAX_ENTRIES_PER_REQUEST, type UrlFilter, type UrlView } from './url.schemas';

interface UrlRow {
  id: string;
  loc: string;
  section: string;
  lastmod: string | null;
  changefreq: string | null;
  priority: number | null;
  images: unknown;
  videos: unknown;
  news: unknown;
  alternates: { hreflang: string; href: string }[] | null;
  updated_at: Date;
}

@Injectable()
export class UrlsService {
  constructor(
    private readonly sites: SitesService,
    @Inject(URL_INGEST) private readonly ingest: UrlIngestService,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  /** Upsert by loc. Invalid entries are reported by index; the valid ones are stored. */
  async upsert(tenantId: string, siteId: string, entries: unknown): Promise<UpsertResult> {
    const site = await this.sites.get(tenantId, siteId);
    if (!Array.isArray(entries)) throw invalid('VALIDATION_FAILED', 'body must be a JSON array of URL entries', [{ field: 'body', message: 'expected an array' }]);
    if (entries.length > MAX_ENTRIES_PER_REQUEST) {
      throw new DomainError('too_large', 'TOO_MANY_ENTRIES', `at most ${MAX_ENTRIES_PER_REQUEST} entries per request; use the import endpoint for more`);
    }
    await this.checkUrlQuota(site, entries);
    return this.ingest.upsert(site, entries);
  }

  async delete(tenantId: string, siteId: string, locs: readonly string[]): Promise<{ deleted: number; notFound: string[] }> {
    return this.ingest.delete(await this.sites.get(tenantId, siteId), locs);
  }

  /** Live URLs in id order (the order they were first stored), with their hreflang clusters. */
  async list(tenantId: string, siteId: string, filter: UrlFilter, page: PageRequest): Promise<Page<UrlView>> {
    const site = await this.sites.get(tenantId, siteId);
    const after = decodeCursor(page.after, bigintKey);
    const { rows } = await this.pool.query<UrlRow>(
      `SELECT id, loc, section, lastmod, changefreq, priority, images, videos, news, alternates, updated_at FROM urls
        WHERE site_id = $1 AND deleted_at IS NULL AND id > $2
          AND ($3::text IS NULL OR starts_with(loc, $3)) AND ($4::text IS NULL OR section = $4)
          AND ($5::timestamptz IS NULL OR updated_at >= $5)
        ORDER BY id LIMIT $6`,
      [site.id, after ?? '0', filter.prefix ?? null, filter.section ?? null, filter.changedSince ?? null, page.first + 1],
    );
    return pageOf(rows, page.first, (row) => row.id, (row) => ({
      loc: row.loc,
      section: row.section || null,
      lastmod: row.lastmod,
      changefreq: row.changefreq,
      priority: row.priority,
      alternates: row.alternates ?? [],
      images: row.images ?? [],
      videos: row.videos ?? [],
      news: row.news,
      updatedAt: row.updated_at,
    }));
  }

  /**
   * tenants.max_urls caps live URLs across the tenant's sites. A batch that would add more new
   * URLs than there is room for is refused whole (422 QUOTA_URLS, nothing stored), naming the
   * entries past the limit, so the client can resend the part that fits. Updates of stored URLs
   * and invalid entries take no room. Concurrent batches may overshoot by a batch: the check
   * reads before the ingest transaction writes.
   */
  private async checkUrlQuota(site: SiteRow, entries: readonly unknown[]): Promise<void> {
    const { rows } = await this.pool.query<{ max_urls: number | null }>('SELECT max_urls FROM tenants WHERE id = $1', [site.tenantId]);
    const max = rows[0]?.max_urls ?? null;
    if (max === null) return;
    const live = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM urls u JOIN sites s ON s.id = u.site_id WHERE s.tenant_id = $1 AND u.deleted_at IS NULL`,
      [site.tenantId],
    );
    const stored = Number(live.rows[0]?.n ?? 0);
    const room = max - stored;
    if (entries.length <= room) return;

    // Which entries would add a URL: valid ones (by the ingest's own rules) not yet live.
    const firstIndexOf = new Map<string, number>();
    const now = new Date();
    entries.forEach((entry, index) => {
      const prepared = prepareEntry(site, entry, index, now);
      if (prepared.ok && !firstIndexOf.has(prepared.entry.hex)) firstIndexOf.set(prepared.entry.hex, index);
    });
    const existing = await this.pool.query<{ loc_hash: Buffer }>(
      `SELECT loc_hash FROM urls WHERE site_id = $1 AND loc_hash = ANY($2::bytea[]) AND deleted_at IS NULL`,
      [site.id, [...firstIndexOf.keys()].map((hex) => Buffer.from(hex, 'hex'))],
    );
    for (const row of existing.rows) firstIndexOf.delete(row.loc_hash.toString('hex'));
    const added = [...firstIndexOf.values()].sort((a, b) => a - b);
    if (added.length <= room) return;
    const over = added.slice(Math.max(room, 0));
    throw new DomainError(
      'quota',
      'QUOTA_URLS',
      `tenant quota of ${max} URLs: ${stored} stored, this batch adds ${added.length}, ${over.length} too many; nothing was stored`,
      over.map((index) => ({ index, field: 'loc', code: 'QUOTA_URLS', message: 'exceeds the tenant URL quota' })),
    );
  }
}
