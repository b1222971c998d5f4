// What worker.module adds for sitemaps imports: the lib's import service over the worker's pg
// pool (builds coalesced as for any change) and the importer with its limits from config.
import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import type { AppConfig } from '@sitemaps/config';
import { SitemapImporter, UrlImportService, type UrlIngestService } from '@sitemaps/ingest';
import type { BuildProducer } from '@sitemaps/jobs';
import { BUILD_PRODUCER, CONFIG, PG_POOL, URL_INGEST } from '@sitemaps/core';
import { SITEMAP_IMPORTER, URL_IMPORTS } from './import.tokens';
import { SitemapImportProcessors } from './sitemap-import.processors';

export const IMPORT_PROVIDERS: Provider[] = [
  {
    provide: URL_IMPORTS,
    inject: [PG_POOL, URL_INGEST, BUILD_PRODUCER],
    useFactory: (pool: Pool, ingest: UrlIngestService, builds: BuildProducer) =>
      new UrlImportService(pool, ingest.writer, (siteId) => builds.afterChange(siteId)),
  },
  {
    provide: SITEMAP_IMPORTER,
    inject: [URL_IMPORTS, CONFIG],
    useFactory: (imports: UrlImportService, config: AppConfig) => new SitemapImporter(imports, config.import),
  },
  SitemapImportProcessors,
];
