import { randomUUID } from 'node:crypto';
import { FlowProducer } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgPool, createPrismaClient, createRepositories, type PrismaClient } from '@sitemaps/data';
import { BuildProducer } from '@sitemaps/jobs';
import { insertSite, testRedisUrl, uniqueQueuePrefix, useTestPool } from '@sitemaps/testing';
import { BuildPlanner } from './build-planner';

describe('BuildPlanner (real Postgres and Redis)', () => {
  const fixture = useTestPool();
  let prisma: PrismaClient;
  let redis: Redis;
  let flows: FlowProducer;
  let planner: BuildPlanner;

  beforeAll(() => {
    prisma = createPrismaClient(fixture.db.url, { poolSize: 2 });
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
    const prefix = uniqueQueuePrefix('planner');
    flows = new FlowProducer({ connection: redis, prefix });
    planner = new BuildPlanner(
      createRepositories(prisma, createPgPool(fixture.db.url, { max: 1 })),
      flows,
      new BuildProducer(BuildProducer.queue(redis, prefix), redis, { quietMs: 10, maxWaitMs: 100 }),
    );
  });
  afterAll(async () => {
    await flows?.close();
    redis?.disconnect();
    await prisma?.$disconnect();
  });

  it('plans a change build for an existing site', async () => {
    const site = await insertSite(fixture.pool);
    const planned = await planner.plan({ v: 1, siteId: site.id, full: false, trigger: 'change' });
    expect(planned.buildId).not.toBe('');
    expect(await prisma.build.count({ where: { siteId: site.id } })).toBe(1);
  });

  it('starts a change build running and hands it every shard of a site that has not published', async () => {
    const site = await insertSite(fixture.pool);
    await fixture.pool.query(
      `INSERT INTO shards (site_id, section, ordinal, dirty) VALUES ($1, '', 1, false), ($1, '', 2, true)`,
      [site.id],
    );
    const planned = await planner.plan({ v: 1, siteId: site.id, full: false, trigger: 'change' });
    expect(planned.shards).toBe(2);
    const build = await prisma.build.findUniqueOrThrow({ where: { id: planned.buildId } });
    expect(build.status).toBe('running');
    expect(build.startedAt).not.toBeNull();
  });

  it('plans no build for a suspended tenant and fails one queued before the suspension', async () => {
    const site = await insertSite(fixture.pool);
    const queued = await prisma.build.create({ data: { siteId: site.id, full: true, trigger: 'api' } });
    await fixture.pool.query('UPDATE tenants SET suspended_at = now() WHERE id = $1', [site.tenantId]);
    expect(await planner.plan({ v: 1, siteId: site.id, full: false, trigger: 'change' })).toEqual({
      buildId: '',
      shards: 0,
    });
    await planner.plan({ v: 1, siteId: site.id, full: true, trigger: 'api', buildId: queued.id });
    const failed = await prisma.build.findUniqueOrThrow({ where: { id: queued.id } });
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('TENANT_SUSPENDED');
    expect(await prisma.build.count({ where: { siteId: site.id } })).toBe(1);
  });

  it('does nothing, without failing, for a change build whose site was deleted meanwhile', async () => {
    await expect(planner.plan({ v: 1, siteId: randomUUID(), full: false, trigger: 'change' })).resolves.toEqual({
      buildId: '',
      shards: 0,
    });
  });
});
