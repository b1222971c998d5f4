// Imported first by main.ts: tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) must hook HTTP,
// pg, ioredis and the rest before they are loaded.
import { traceFromEnv } from '@sitemaps/observability';

traceFromEnv('api');
