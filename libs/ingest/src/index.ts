export * from './url-ingest.service';
export * from './url-entry.preparer';
export { UrlBatchWriter, type WriteOptions, type WriteResult } from './url-batch.writer';
export * from './imports/import.types';
export * from './imports/url-import.service';
export * from './imports/upload.importer';
export { readNdjson } from './imports/ndjson.reader';
export { readCsv } from './imports/csv.reader';
export { SitemapImporter, type SitemapImportLimits } from './sitemaps/sitemap.importer';
export { isPublicAddress } from './sitemaps/address.policy';
export {
  asRefusal,
  fetchUrl,
  guardedLookup,
  networkFailure,
  FetchRefusedError,
  type FetchPolicy,
} from './sitemaps/safe-fetch';
export { exportEntry, ndjsonExport } from './imports/url-export';
