// What follows a change to sites once it has committed, in one place for the tenant's API and the
// operator's: public servers hear of it; a deletion also ends the sites' scheduled rebuilds and
// queues the removal of their files from the store (their rows, GC's bookkeeping, are gone).
import { Inject, Injectable } from '@nestjs/common';
import type { BuildProducer, SiteFilesProducer } from '@sitemaps/jobs';
import { SITE_FILES_PRODUCER } from '../api.tokens';
import { ANNOUNCE_SITE_CHANGE, BUILD_PRODUCER, type AnnounceSiteChange } from '@sitemaps/core';

@Injectable()
export class SiteLifecycle {
  constructor(
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
    @Inject(ANNOUNCE_SITE_CHANGE) private readonly announce: AnnounceSiteChange,
    @Inject(SITE_FILES_PRODUCER) private readonly files: SiteFilesProducer,
  ) {}

  /** Public servers drop what they cached of the site. */
  changed(siteId: string): Promise<void> {
    return this.announce(siteId);
  }

  async deleted(siteIds: readonly string[]): Promise<void> {
    for (const siteId of siteIds) {
      await this.builds.scheduleRebuilds(siteId, null);
      await this.announce(siteId);
    }
    await this.files.removeFilesOf(siteIds);
  }
}
