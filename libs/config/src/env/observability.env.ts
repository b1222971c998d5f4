// Process mode, logs, Prometheus metrics and OpenTelemetry tracing.
import { z } from 'zod';
import { flag } from './env-types';

export const observabilityEnv = {
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .meta({ description: '`development` `production` `test`' }),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .meta({ description: '`fatal` `error` `warn` `info` `debug` `trace` `silent`' }),
  /** npm start only: how it shows the apps' JSON lines (`pretty`: through pino-pretty; `json`: as written). */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('pretty').meta({
    description:
      "`npm start` only: how it shows the apps' JSON lines (`pretty` through pino-pretty, `json` as written); the apps always write JSON",
  }),
  /** `GET /metrics` (Prometheus) on a listener of its own per app, off when unset; keep the port private. */
  API_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional().meta({
    description:
      "`GET /metrics` (Prometheus) on a listener of its own for the api / the public server (a cluster's primary answers for all its processes); `0` picks a free port, which the app logs (`metricsPort`). The worker's is on `WORKER_HTTP_PORT`",
    docDefault: 'unset (off)',
  }),
  PUBLIC_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional().meta({ docWith: 'API_METRICS_PORT' }),
  METRICS_HOST: z.string().default('0.0.0.0').meta({ description: 'where the metrics listeners listen' }),
  /** OTLP endpoint (spans go to `<endpoint>/v1/traces`), or the traces' own; neither: no tracing at all.
   *  The other OTEL_* variables are read by OpenTelemetry's SDK itself (libs/observability/src/tracing.ts). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .meta({
      description:
        "the OTLP collector (spans go to `<endpoint>/v1/traces`), or the traces' own endpoint; either turns tracing on. The other standard `OTEL_*` variables are read by the OpenTelemetry SDK itself (see Traces)",
      docDefault: 'unset (no tracing, nothing loaded)',
    }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .meta({ docWith: 'OTEL_EXPORTER_OTLP_ENDPOINT' }),
  /** OpenTelemetry's own switch: `true` turns tracing off whatever the endpoint. */
  OTEL_SDK_DISABLED: flag.default(false).meta({ description: '`true`: no tracing, whatever the endpoint' }),
};
