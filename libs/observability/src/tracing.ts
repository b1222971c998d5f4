// OpenTelemetry traces, only when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
// is set: then every app runs OpenTelemetry's Node SDK (`@opentelemetry/sdk-node`), which reads
// the standard OTEL_* variables itself (service name and resource attributes, exporter protocol
// and headers, sampler, batch delays, propagators), and exports spans from HTTP, Fastify, pg,
// ioredis and GraphQL; BullMQ carries the trace context in each job it adds (bullmq-otel), so one
// trace follows a PUT through the build's jobs to the publish across processes. Log lines written
// inside a span carry its `traceId` and `spanId`. Unset, nothing here is loaded: no cost.
// `startTracing` must run before the instrumented modules are loaded (first line of each main.ts).
import { createRequire } from 'node:module';
import type { Telemetry } from 'bullmq';
import { loadTracingEnv } from '@sitemaps/config';

export interface TracingSettings {
  /** The service name unless OTEL_SERVICE_NAME (or `service.name` in OTEL_RESOURCE_ATTRIBUTES) says otherwise. */
  serviceName: string;
}

export interface Tracing {
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

let telemetry: Telemetry | undefined;
let traceFields: (() => Record<string, string>) | undefined;

/** BullMQ's telemetry while tracing is on, for every Queue, Worker and FlowProducer: `{...jobTelemetry()}`. */
export function jobTelemetry(): { telemetry?: Telemetry } {
  return telemetry ? { telemetry } : {};
}

/**
 * While tracing is on, pino's `mixin`: the active span's `traceId` and `spanId` on every line
 * written inside it (nothing outside one). Undefined while tracing is off, so the loggers of an
 * untraced process pay nothing per line.
 */
export function traceLogMixin(): (() => Record<string, string>) | undefined {
  return traceFields;
}

export function startTracing(settings: TracingSettings): Tracing {
  // Loaded here, not imported: an app without an endpoint never loads OpenTelemetry.
  const require = createRequire(__filename);
  const { NodeSDK, resources, api } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { ATTR_SERVICE_NAME } =
    require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
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

  const sdk = new NodeSDK({
    // The SDK merges what OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES say over this (and the
    // process and host attributes it detects).
    resource: resources
      .defaultResource()
      .merge(resources.resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName })),
    // Traces only: metrics are Prometheus' (/metrics), logs are JSON lines on stdout. Without
    // these, the SDK would also push OTLP metrics and logs to the endpoint.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation(),
      new FastifyInstrumentation(),
      new PgInstrumentation(),
      new IORedisInstrumentation({ requireParentSpan: true }),
      new GraphQLInstrumentation({ mergeItems: true }),
    ],
  });
  // The global tracer provider (exporter, processor and sampler from OTEL_*), AsyncLocalStorage
  // context and the propagators (W3C trace context and baggage unless OTEL_PROPAGATORS says otherwise).
  sdk.start();
  telemetry = new BullMQOtel('sitemaps');
  traceFields = (): Record<string, string> => {
    const span = api.trace.getSpan(api.context.active());
    if (!span) return {};
    const { traceId, spanId } = span.spanContext();
    return { traceId, spanId };
  };
  return {
    async shutdown() {
      telemetry = undefined;
      traceFields = undefined;
      await sdk.shutdown();
    },
  };
}

let started: Tracing | undefined;

/**
 * Starts tracing when the config says so (an OTLP endpoint is set, OTEL_SDK_DISABLED is not).
 * Each app's `tracing.ts` calls it and is the first import of its main.ts, so the
 * instrumentations hook modules before they load.
 */
export function traceFromEnv(app: string): Tracing | undefined {
  if (loadTracingEnv().enabled && !started) started = startTracing({ serviceName: `sitemaps-${app}` });
  return started;
}

/** Flushes and stops the tracing `traceFromEnv` started, if any (on shutdown). */
export async function stopTracing(): Promise<void> {
  const tracing = started;
  started = undefined;
  await tracing?.shutdown();
}
