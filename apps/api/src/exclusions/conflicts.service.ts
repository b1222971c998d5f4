import { Injectable } from '@nestjs/common';
import { ReadRouter, UrlExclusionRepository, type Site } from '@sitemaps/data';
import { URL_CONFLICT_CODES, UrlConflictChecker, type UrlConflict, type UrlConflictCode } from '@sitemaps/domain';
import { siteOrigin, type EntryError } from '@sitemaps/ingest';
import { SitesService } from '../sites/sites.service';
import type { ConflictReportView } from './exclusion.schemas';

/** A raw entry as a client sent it: only what the checks read, when it has the right types. */
interface SentEntry {
  loc: string;
  lastmod?: string;
  alternates?: { hreflang: string; href: string }[];
  excluded?: boolean;
}

@Injectable()
export class ConflictsService {
  constructor(
    private readonly sites: SitesService,
    private readonly exclusions: UrlExclusionRepository,
    private readonly reads: ReadRouter,
  ) {}

  /**
   * The conflicts of the entries a write stored (those not in `rejected`), as warnings by index:
   * stored all the same, but worth a look.
   */
  async onWrite(site: Site, entries: readonly unknown[], rejected: ReadonlySet<number>): Promise<EntryError[]> {
    // Two passes over the entries as sent, nothing kept per entry in between (this runs for
    // every entry of every PUT): the site links' hrefs to look up, then the checks.
    const checker = await this.checker(site, this.exclusions);
    const hrefs: string[] = [];
    for (let index = 0; index < entries.length; index++) {
      const entry = rejected.has(index) ? undefined : sentEntry(entries[index]);
      if (entry) for (const link of checker.siteLinks(entry)) hrefs.push(link.href);
    }
    const flagged = await this.exclusions.flaggedAmong(site.id, hrefs);
    const now = new Date();
    const warnings: EntryError[] = [];
    for (let index = 0; index < entries.length; index++) {
      const entry = rejected.has(index) ? undefined : sentEntry(entries[index]);
      if (!entry) continue;
      for (const conflict of checker.check(entry, { now, excluded: entry.excluded === true, flagged }))
        warnings.push({ index, ...conflict });
    }
    return warnings;
  }

  /**
   * Every live URL of the site checked, read in batches from a cursor: the counts per code, and
   * the first `limit` conflicts.
   */
  async report(tenantId: string, siteId: string, limit: number): Promise<ConflictReportView> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    const checker = await this.checker(site, reader.urlExclusions);
    const counts = Object.fromEntries(URL_CONFLICT_CODES.map((code) => [code, 0])) as Record<UrlConflictCode, number>;
    const conflicts: UrlConflict[] = [];
    let checkedUrls = 0;
    const now = new Date();
    for await (const rows of reader.urls.exportBatches(site.id, {})) {
      const flagged = await reader.urlExclusions.flaggedAmong(
        site.id,
        rows.flatMap((row) => checker.siteLinks(row).map((link) => link.href)),
      );
      for (const row of rows) {
        checkedUrls++;
        for (const conflict of checker.check(row, { now, excluded: row.excluded, flagged })) {
          counts[conflict.code]++;
          if (conflicts.length < limit) conflicts.push(conflict);
        }
      }
    }
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    return { checkedUrls, counts, total, conflicts, truncated: total > conflicts.length };
  }

  private async checker(site: Site, exclusions: UrlExclusionRepository): Promise<UrlConflictChecker> {
    return new UrlConflictChecker({
      origin: siteOrigin(site),
      robotsTxt: site.robotsTxt,
      exclusionRules: await exclusions.rules(site.id),
    });
  }
}

function sentEntry(entry: unknown): SentEntry | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { loc, lastmod, alternates, excluded } = entry as Record<string, unknown>;
  if (typeof loc !== 'string') return undefined;
  // Most entries have the fields' types already (the write stored them): read as they are.
  if (
    (lastmod === undefined || typeof lastmod === 'string') &&
    (alternates === undefined || (Array.isArray(alternates) && alternates.every(isLink))) &&
    (excluded === undefined || typeof excluded === 'boolean')
  )
    return entry as SentEntry;
  const sent: SentEntry = { loc };
  if (typeof lastmod === 'string') sent.lastmod = lastmod;
  if (Array.isArray(alternates)) sent.alternates = alternates.filter(isLink);
  if (typeof excluded === 'boolean') sent.excluded = excluded;
  return sent;
}

function isLink(link: unknown): link is { hreflang: string; href: string } {
  return typeof link === 'object' && link !== null && typeof (link as { href?: unknown }).href === 'string';
}
