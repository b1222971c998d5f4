// Sites published before shards moved to the root still list them in `sitemaps/`. At boot, a
// worker that plans builds queues a change build for each (debounced per site, as any change):
// the planner sees the legacy paths and renders every shard, the publish leaves a 301 from each
// old path. A site that builds for any other reason moves the same way.
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ManifestRepository } from '@sitemaps/data';
import { QUEUE, type BuildProducer } from '@sitemaps/jobs';
import { JobWorkers } from '../job-workers';
import { BUILD_PRODUCER } from '@sitemaps/core';

@Injectable()
export class LayoutMigration implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('builds');
  private running: Promise<void> | undefined;

  constructor(
    private readonly manifests: ManifestRepository,
    @Inject(BUILD_PRODUCER) private readonly builds: BuildProducer,
    private readonly workers: JobWorkers,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.workers.serves(QUEUE.build)) return;
    // Not awaited: boot does not wait on a scan of every manifest. A failure is retried by the next boot.
    this.running = this.run().catch((error: Error) =>
      this.logger.warn(`moving sites out of the sitemaps/ folder failed, the next boot retries: ${error.message}`),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.running;
  }

  private async run(): Promise<void> {
    const sites = await this.manifests.sitesWithLegacyPaths();
    for (const siteId of sites) await this.builds.afterChange(siteId);
    if (sites.length > 0)
      this.logger.log(`${sites.length} site(s) publish in the sitemaps/ folder: a build moves each to the root`);
  }
}
