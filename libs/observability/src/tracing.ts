// OpenTelemetry traces, only when OTEL_EXPORTER_OTLP_ENDPOINT is set: then every app exports
// spans over OTLP/HTTP (JSON) from HTTP, Fastify, pg, ioredis and GraphQL, and BullMQ carries
// the trace context in each job it adds (bullmq-otel), so one trace follows a PUT through the
// build's jobs to the publish across processes. Unset, nothing here is loaded: no cost.
// `startTracing` must run before the instrumented modules are loaded (first line of each main.ts).
import { createRequire } from 'node:module';
import type { Telemetry } from 'bullmq';
import { loadTracingEnv } from '@sitemaps/config';

export interface TracingSettings {
  /** OTLP/HTTP base URL: spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
}

export interface Tracing {
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

let telemetry: Telemetry | undefined;

/** BullMQ's telemetry while tracing is on, for every Queue, Worker and FlowProducer: `{...jobTelemetry()}`. */
export function jobTelemetry(): { telemetry?: Telemetry } {
  return telemetry ? { telemetry } : {};
}

/** The span exporter flushes at most this long after a span ends. */
const EXPORT_DELAY_MS = 500;

export function startTracing(settings: TracingSettings): Tracing {
  // Loaded here, not imported: an app without an endpoint never loads OpenTelemetry.
  const require = createRequire(__filename);
  const { NodeTracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { ATTR_SERVICE_NAME } =
    require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { FastifyInstrumentation } =
    require('@opentelemetry/instrumentation-fastify') as typeof import('@opentelemetry/instrumentation-fastify');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { GraphQLInstrumentation } =
    require('@opentelemetry/instrumentation-graphql') as typeof import('@opentelemetry/instrumentation-graphql');
  const { BullMQOtel } = require('bullmq-otel') as typeof import('bullmq-otel');

  const exporter = new OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: EXPORT_DELAY_MS })],
  });
  // The global tracer, AsyncLocalStorage context and W3C trace-context propagation.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // The exporter's own requests are not traced.
        ignoreOutgoingRequestHook: (request) => String(request.path ?? '').endsWith('/v1/traces'),
      }),
      new FastifyInstrumentation(),
      new PgInstrumentation(),
      new IORedisInstrumentation({ requireParentSpan: true }),
      new GraphQLInstrumentation({ mergeItems: true }),
    ],
  });
  telemetry = new BullMQOtel('sitemaps') as unknown as Telemetry;
  return {
    async shutdown() {
      telemetry = undefined;
      await provider.shutdown();
    },
  };
}

let started: Tracing | undefined;

/**
 * Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set. Each app's `tracing.ts` calls it and is
 * the first import of its main.ts, so the instrumentations hook modules before they load.
 */
export function traceFromEnv(app: string): Tracing | undefined {
  const { endpoint } = loadTracingEnv();
  if (endpoint && !started) started = startTracing({ endpoint, serviceName: `sitemaps-${app}` });
  return started;
}

/** Flushes and stops the tracing `traceFromEnv` started, if any (on shutdown). */
export async function stopTracing(): Promise<void> {
  const tracing = started;
  started = undefined;
  await tracing?.shutdown();
}
