// One trace from a PUT to the publish, across processes: the api and a worker run as production
// runs them, with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP/HTTP receiver (a node:http
// server here, decoding the exporter's JSON: OTEL_EXPORTER_OTLP_PROTOCOL=http/json). The PUT's
// server span is the root; the build's jobs (plan, shard renders, publish) hang under it through
// the context BullMQ carries in each job. The SDK reads the standard OTEL_* variables (service
// name, resource attributes, protocol, batch delay), and log lines written in a span name it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { developmentSiteVerification } from '@sitemaps/config';
import { createTestDatabase, testRedisUrl, uniqueQueuePrefix, waitUntil, type TestDatabase } from '@sitemaps/testing';
import { spawnApi, type ApiProcess } from './support/api-process';
import { ADMIN_KEY } from './support/platform';
import { spawnWorker, type WorkerProcess } from './support/worker-process';
import { createTenant } from './support/tenant';

const HOST = 'traced.example.com';
/** The worker's OTEL_SERVICE_NAME; the api keeps its default name. */
const WORKER_SERVICE = 'worker-blue';

type Line = Record<string, unknown>;

function jsonLines(output: string): Line[] {
  return output
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text) as Line);
}

interface ReceivedSpan {
  service: string;
  /** The resource's `deployment.environment.name`. */
  environment: string | undefined;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
}

interface OtlpJson {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number }[] }[];
  }[];
}

/** An OTLP/HTTP receiver: every span exported to it, with its service name. */
async function startReceiver(): Promise<{
  url: string;
  spans: ReceivedSpan[];
  contentTypes: Set<string>;
  paths: Set<string>;
  close(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  const contentTypes = new Set<string>();
  const paths = new Set<string>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      contentTypes.add(String(request.headers['content-type']));
      paths.add(String(request.url));
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpJson;
        for (const resource of body.resourceSpans ?? []) {
          const attribute = (key: string) =>
            resource.resource?.attributes?.find((a) => a.key === key)?.value.stringValue;
          const service = attribute('service.name') ?? '';
          const environment = attribute('deployment.environment.name');
          for (const scope of resource.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                service,
                environment,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || undefined,
                name: span.name,
                kind: span.kind,
              });
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('tracing', () => {
  let db: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let api: ApiProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    receiver = await startReceiver();
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      ADMIN_API_KEY: ADMIN_KEY,
      QUEUE_PREFIX: uniqueQueuePrefix('trace'),
      LOG_LEVEL: 'info',
      BUILD_QUIET_MS: '100',
      INDEXNOW_ENDPOINTS: 'off',
      SITE_VERIFICATION: developmentSiteVerification(),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Read by OpenTelemetry's SDK itself.
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=e2e',
    };
    [api, worker] = await Promise.all([spawnApi(env), spawnWorker({ ...env, OTEL_SERVICE_NAME: WORKER_SERVICE })]);
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    await receiver?.close();
    await db?.drop();
  });

  it('follows a PUT through the build it triggers to the publish, from the api to the worker', async () => {
    const { api: tenant } = await createTenant(api.url, 'Traced');
    const site = await tenant.post('/v1/sites', { hostname: HOST, scheme: 'https' });
    expect(site.status).toBe(201);
    const put = await tenant.put(`/v1/sites/${site.body.id}/urls`, [
      { loc: `https://${HOST}/a` },
      { loc: `https://${HOST}/b` },
    ]);
    expect(put.status).toBe(200);
    const build = await waitUntil(
      'the change build to publish',
      async () => {
        const { body } = await tenant.get(`/v1/sites/${site.body.id}/builds`);
        const items = (body?.items ?? []) as { status: string }[];
        return items.find((item) => item.status === 'published');
      },
      { timeoutMs: 60_000 },
    );
    expect(build).toBeDefined();

    // The PUT's own server span, and the publish job's processing span in the same trace.
    const putSpan = await waitUntil('the PUT server span', () =>
      receiver.spans.find((span) => span.service === 'sitemaps-api' && span.kind === 2 && span.name.startsWith('PUT')),
    );
    const publish = await waitUntil(
      'the publish span in the PUT trace',
      () =>
        receiver.spans.find(
          (span) =>
            span.traceId === putSpan.traceId && span.service === WORKER_SERVICE && span.name === 'process publish',
        ),
      { timeoutMs: 30_000 },
    );

    // Parent by parent from the publish back to the PUT: every link is a span that was exported.
    const chain = await waitUntil('every span from the publish back to the root', () => {
      const byId = new Map(receiver.spans.map((span) => [span.spanId, span]));
      const links: ReceivedSpan[] = [publish];
      for (let span = publish; span.parentSpanId;) {
        const parent = byId.get(span.parentSpanId);
        if (!parent) return undefined;
        links.push(parent);
        span = parent;
      }
      return links;
    });
    const root = chain.at(-1) as ReceivedSpan;
    expect(root.spanId).toBe(putSpan.spanId);
    const names = chain.map((span) => `${span.service}: ${span.name}`);
    // The build job was added by the API and processed by the worker, which added the flow.
    expect(names).toEqual(
      expect.arrayContaining([`${WORKER_SERVICE}: process publish`, `${WORKER_SERVICE}: process build`]),
    );
    expect(names.some((name) => name.startsWith('sitemaps-api: add build.'))).toBe(true);
    expect(new Set(chain.map((span) => span.traceId))).toEqual(new Set([putSpan.traceId]));

    // Postgres and Redis calls of the PUT are in its trace too.
    const inPut = receiver.spans
      .filter((span) => span.traceId === putSpan.traceId && span.service === 'sitemaps-api')
      .map((span) => span.name);
    expect(inPut.some((name) => /^(pg\.|SELECT|INSERT|UPDATE|BEGIN|COMMIT)/.test(name) || name.includes('pg'))).toBe(
      true,
    );
    expect([...receiver.contentTypes]).toEqual(['application/json']);
    // OTEL_RESOURCE_ATTRIBUTES on every span of both processes; traces only, no OTLP metrics or logs.
    expect(new Set(receiver.spans.map((span) => span.environment))).toEqual(new Set(['e2e']));
    expect([...receiver.paths]).toEqual(['/v1/traces']);

    // The PUT's request line names its trace; the publish job's last line, the publish span.
    const putLine = jsonLines(api.output()).find(
      (line) => line.msg === 'request' && line.method === 'PUT' && line.route === '/v1/sites/:siteId/urls',
    );
    expect(putLine).toMatchObject({ traceId: putSpan.traceId, spanId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const publishLine = await waitUntil('the publish job line', () =>
      jsonLines(worker.output()).find((line) => line.msg === 'job done' && line.queue === 'publish'),
    );
    expect(publishLine).toMatchObject({ traceId: putSpan.traceId, spanId: publish.spanId });
    // Lines outside any span name none.
    const listening = jsonLines(api.output()).find((line) => String(line.msg).startsWith('api listening'));
    expect(listening).toBeDefined();
    expect(listening?.traceId).toBeUndefined();
  }, 120_000);
});
