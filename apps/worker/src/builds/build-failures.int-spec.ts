import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgPool, createPrismaClient, createRepositories, type PrismaClient } from '@sitemaps/data';
import { WebhookProducer } from '@sitemaps/jobs';
import { PlatformMetrics } from '@sitemaps/observability';
import { insertSite, testRedisUrl, uniqueQueuePrefix, useTestPool } from '@sitemaps/testing';
import { BuildFailures } from './build-failures';

describe('BuildFailures (real Postgres and Redis)', () => {
  const fixture = useTestPool();
  let prisma: PrismaClient;
  let redis: Redis;
  let jobs: Queue;
  let webhookQueue: Queue;
  let metrics: PlatformMetrics;
  let failures: BuildFailures;
  let repositories: ReturnType<typeof createRepositories>;

  beforeAll(() => {
    prisma = createPrismaClient(fixture.db.url, { poolSize: 2 });
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
    const prefix = uniqueQueuePrefix('build-failures');
    jobs = new Queue('build', { connection: redis, prefix });
    webhookQueue = WebhookProducer.queue(redis, prefix, { attempts: 1, backoffMs: 1_000 });
    repositories = createRepositories(prisma, createPgPool(fixture.db.url, { max: 1 }));
    metrics = new PlatformMetrics('worker', { defaultMetrics: false });
    failures = new BuildFailures(
      repositories.builds,
      new WebhookProducer(webhookQueue, repositories.webhooks),
      metrics,
    );
  });
  afterAll(async () => {
    await jobs?.obliterate({ force: true });
    await webhookQueue?.obliterate({ force: true });
    await jobs?.close();
    await webhookQueue?.close();
    redis?.disconnect();
    await prisma?.$disconnect();
  });

  /** A site whose tenant has an endpoint subscribed to build.failed, and one build in `status`. */
  async function buildOf(status: string) {
    const site = await insertSite(fixture.pool);
    const endpoint = await repositories.webhooks.createEndpoint(site.tenantId, {
      url: 'https://hooks.example.com/builds',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      eventTypes: ['build.failed'],
      enabled: true,
    });
    const build = await prisma.build.create({ data: { siteId: site.id, status } });
    return { site, endpoint, build };
  }

  async function failedCount(): Promise<number> {
    const { values } = await metrics.buildDuration.get();
    return (
      values.find((v) => v.metricName === 'sitemaps_build_duration_seconds_count' && v.labels.outcome === 'failed')
        ?.value ?? 0
    );
  }

  it('marks a running build failed with the error, counts it and emits build.failed to the subscribed endpoint', async () => {
    const { site, endpoint, build } = await buildOf('running');
    const job: Job = await jobs.add('render-shard', { v: 1, siteId: site.id, buildId: build.id });
    const before = await failedCount();

    await failures.markFailed(job, new Error('RENDER_FAILED: the shard could not be read'));

    const stored = await prisma.build.findUniqueOrThrow({ where: { id: build.id } });
    expect(stored).toMatchObject({ status: 'failed', error: 'RENDER_FAILED: the shard could not be read' });
    expect(stored.finishedAt).toBeInstanceOf(Date);
    expect(await failedCount()).toBe(before + 1);
    const deliveries = await prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.eventType).toBe('build.failed');
    expect(JSON.parse(deliveries[0]!.body).data).toEqual({
      siteId: site.id,
      buildId: build.id,
      status: 'failed',
      error: 'RENDER_FAILED: the shard could not be read',
    });
    expect(await webhookQueue.getJobCountByTypes('waiting', 'delayed', 'prioritized')).toBe(1);
  });

  it('leaves a build that already finished as it is: no second count, no event', async () => {
    const { site, endpoint, build } = await buildOf('published');
    const job: Job = await jobs.add('publish-build', { v: 1, siteId: site.id, buildId: build.id });
    const before = await failedCount();

    await failures.markFailed(job, new Error('late failure'));

    expect(await prisma.build.findUniqueOrThrow({ where: { id: build.id } })).toMatchObject({
      status: 'published',
      error: null,
    });
    expect(await failedCount()).toBe(before);
    expect(await prisma.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(0);
  });
});
