export * from './url-ingest.service';
