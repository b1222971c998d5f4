import { Inject, Injectable } from '@nestjs/common';
import { ReadRouter, UrlExclusionRepository } from '@sitemaps/data';
import { validateExclusionRules, type ExclusionRule } from '@sitemaps/domain';
import type { BuildProducer } from '@sitemaps/jobs';
import { BUILD_PRODUCER } from '@sitemaps/core';
import { SitesService } from '../sites/sites.service';
import type { ExclusionsChangeView, ExclusionsView } from './exclusion.schemas';

@Injectable()
export class ExclusionsService {
  constructor(
    private readonly sites: SitesService,
    private readonly exclusions: UrlExclusionRepository,
    private readonly reads: ReadRouter,
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
  ) {}

  /** The site's rules, each with how many live URLs it excludes, and the flagged URLs. */
  async view(tenantId: string, siteId: string): Promise<ExclusionsView> {
    const reader = await this.reads.readerFor(tenantId);
    const site = await this.sites.get(tenantId, siteId, reader.sites);
    return this.present(reader.urlExclusions, site.id, await reader.urlExclusions.rules(site.id));
  }

  /**
   * Replaces the site's rules. Only the shards whose files change are re-rendered (a build is
   * scheduled as for any URL change); the URLs and their data stay stored either way.
   */
  async replace(tenantId: string, siteId: string, input: unknown): Promise<ExclusionsChangeView> {
    const site = await this.sites.get(tenantId, siteId);
    const rules = validateExclusionRules(input);
    const changed = await this.exclusions.replaceRules(site.id, rules);
    if (changed.shards > 0) await this.builds.afterChange(site.id);
    return { ...(await this.present(this.exclusions, site.id, rules)), changed };
  }

  private async present(
    repository: UrlExclusionRepository,
    siteId: string,
    rules: ExclusionRule[],
  ): Promise<ExclusionsView> {
    const [counts, flaggedUrls] = await Promise.all([
      repository.countsPerRule(siteId, rules),
      repository.flaggedCount(siteId),
    ]);
    return { rules: rules.map((rule, i) => ({ rule, excludedUrls: counts[i] ?? 0 })), flaggedUrls };
  }
}
