// URLs per sitemap file, per site and per section, through the real API and workers: new shards
// fill up to the size; a changed size leaves the files already published as they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api-client';
import { crawl, locsOf } from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { createTenant } from './support/tenant';

const HOST = 'sizes.example.com';
const url = (path: string) => `https://${HOST}${path}`;

describe('shard size', () => {
  let platform: Platform;
  let api: ReturnType<typeof apiClient>;
  let siteId: string;

  beforeAll(async () => {
    platform = await startPlatform({ BUILD_QUIET_MS: '600000', BUILD_MAX_WAIT_MS: '600000' });
    ({ api } = await createTenant(platform.apiUrl, 'Sizes'));
  });
  afterAll(async () => {
    await platform?.close();
  });

  const publish = async () => {
    const { body } = await api.post(`/v1/sites/${siteId}/builds`, {});
    expect(await api.waitForBuild(siteId, body.buildId)).toMatchObject({ status: 'published' });
  };
  const shardCounts = async () => {
    const { body } = await api.get(`/v1/sites/${siteId}/shards?limit=100`);
    return (body.items as { section: string | null; urlCount: number }[]).map(
      (shard) => `${shard.section ?? ''}:${shard.urlCount}`,
    );
  };
  const put = async (paths: string[], section?: string) => {
    const { body } = await api.put(
      `/v1/sites/${siteId}/urls`,
      paths.map((path) => ({ loc: url(path), ...(section ? { section } : {}) })),
    );
    expect(body.errors).toEqual([]);
  };
  const range = (prefix: string, from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`);

  it('fills new shards up to the site size and a section over it', async () => {
    const created = await api.post('/v1/sites', {
      hostname: HOST,
      shardSize: 100,
      sectionShardSizes: [{ section: 'blog', shardSize: 30 }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ shardSize: 100, sectionShardSizes: [{ section: 'blog', shardSize: 30 }] });
    siteId = created.body.id;
    await put(range('/p/', 0, 250));
    await put(range('/blog/', 0, 70), 'blog');
    expect(await shardCounts()).toEqual([':100', ':100', ':50', 'blog:30', 'blog:30', 'blog:10']);
    await publish();
    const { shards } = await crawl(platform.publicUrl, HOST);
    expect(shards.map((shard) => locsOf(shard.xml).length).sort((a, b) => a - b)).toEqual([10, 30, 30, 50, 100, 100]);
  });

  it('a new size applies to new shards only: the published files keep their URLs and names', async () => {
    const before = await crawl(platform.publicUrl, HOST);
    const patched = await api.patch(`/v1/sites/${siteId}`, { shardSize: 40 });
    expect(patched.body).toMatchObject({ shardSize: 40, sectionShardSizes: [{ section: 'blog', shardSize: 30 }] });
    await put(range('/p/', 250, 350));
    expect(await shardCounts()).toEqual([':100', ':100', ':50', 'blog:30', 'blog:30', 'blog:10', ':40', ':40', ':20']);
    await publish();
    const after = await crawl(platform.publicUrl, HOST);
    for (const shard of before.shards) {
      expect(after.shards.find((other) => other.path === shard.path)?.etag).toBe(shard.etag);
    }
    expect(after.shards).toHaveLength(before.shards.length + 3);
  });

  it('refuses a size outside 1-50,000', async () => {
    for (const body of [
      { shardSize: 0 },
      { shardSize: 50_001 },
      { sectionShardSizes: [{ section: 'blog', shardSize: 0 }] },
      { sectionShardSizes: [{ section: 'Not A Section', shardSize: 10 }] },
    ]) {
      const refused = await api.patch(`/v1/sites/${siteId}`, body);
      expect(refused.status).toBe(400);
    }
    const cleared = await api.patch(`/v1/sites/${siteId}`, { shardSize: null, sectionShardSizes: [] });
    expect(cleared.body).toMatchObject({ shardSize: null, sectionShardSizes: [] });
  });
});
