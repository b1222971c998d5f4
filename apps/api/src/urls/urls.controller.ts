import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Put, Query } from '@nestjs/common';
import type { Pool } from 'pg';
import { z } from 'zod';
import { DomainError } from '@sitemaps/domain';
import type { UrlIngestService } from '@sitemaps/ingest';
import { PG_POOL } from '../api.tokens';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { cursorQuery, decodeCursor, encodeCursor, parseInput } from '../errors/parse-input';
import { parseSiteId } from '../sites/sites.controller';
import { SitesService } from '../sites/sites.service';

export const URL_INGEST = Symbol('URL_INGEST');
export const MAX_ENTRIES_PER_REQUEST = 10_000;

const deleteUrls = z.object({ locs: z.array(z.string().min(1)).min(1).max(MAX_ENTRIES_PER_REQUEST) }).strict();
const listUrls = cursorQuery.extend({ prefix: z.string().max(2_048).optional(), section: z.string().max(40).optional() });

@Controller('v1/sites/:siteId/urls')
export class UrlsController {
  constructor(
    private readonly sites: SitesService,
    @Inject(URL_INGEST) private readonly ingest: UrlIngestService,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  /** Upsert by loc. Invalid entries are reported by index; the valid ones are stored. */
  @Put()
  @RequireScope('write')
  async upsert(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    const site = await this.sites.get(tenantId, parseSiteId(siteId));
    if (!Array.isArray(body)) throw new DomainError('invalid', 'VALIDATION_FAILED', 'body must be a JSON array of URL entries', [{ field: 'body', message: 'expected an array' }]);
    if (body.length > MAX_ENTRIES_PER_REQUEST) {
      throw new DomainError('too_large', 'TOO_MANY_ENTRIES', `at most ${MAX_ENTRIES_PER_REQUEST} entries per request; use the import endpoint for more`);
    }
    const result = await this.ingest.upsert(site, body);
    return { upserted: result.upserted, changed: result.changed, errors: result.errors, warnings: result.warnings };
  }

  @Delete()
  @RequireScope('write')
  @HttpCode(200)
  async remove(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Body() body: unknown) {
    const site = await this.sites.get(tenantId, parseSiteId(siteId));
    return this.ingest.delete(site, parseInput(deleteUrls, body).locs);
  }

  @Get()
  async list(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Query() query: unknown) {
    const site = await this.sites.get(tenantId, parseSiteId(siteId));
    const { cursor, limit, prefix, section } = parseInput(listUrls, query, 'query');
    const after = decodeCursor(cursor);
    const { rows } = await this.pool.query<{ id: string; loc: string; loc_hash: Buffer; section: string; lastmod: string | null; changefreq: string | null; priority: number | null; images: unknown; videos: unknown; news: unknown; updated_at: Date }>(
      `SELECT id, loc, loc_hash, section, lastmod, changefreq, priority, images, videos, news, updated_at FROM urls
        WHERE site_id = $1 AND deleted_at IS NULL AND id > $2
          AND ($3::text IS NULL OR starts_with(loc, $3)) AND ($4::text IS NULL OR section = $4)
        ORDER BY id LIMIT $5`,
      [site.id, after ?? '0', prefix ?? null, section ?? null, limit + 1],
    );
    const page = rows.slice(0, limit);
    const alternates = await this.pool.query<{ href_hash: Buffer; hreflang: string; href: string }>(
      `SELECT m.href_hash, a.hreflang, a.href FROM alternates m JOIN alternates a ON a.site_id = m.site_id AND a.cluster_key = m.cluster_key
        WHERE m.site_id = $1 AND m.href_hash = ANY($2::bytea[]) ORDER BY a.hreflang`,
      [site.id, page.map((row) => row.loc_hash)],
    );
    const links = new Map<string, { hreflang: string; href: string }[]>();
    for (const row of alternates.rows) {
      const key = row.href_hash.toString('hex');
      links.set(key, [...(links.get(key) ?? []), { hreflang: row.hreflang, href: row.href }]);
    }
    return {
      items: page.map((row) => ({
        loc: row.loc,
        section: row.section || null,
        lastmod: row.lastmod,
        changefreq: row.changefreq,
        priority: row.priority,
        alternates: links.get(row.loc_hash.toString('hex')) ?? [],
        images: row.images ?? [],
        videos: row.videos ?? [],
        news: row.news,
        updatedAt: row.updated_at,
      })),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]?.id ?? '0') : null,
    };
  }
}
