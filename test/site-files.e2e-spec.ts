// A deleted site leaves no file behind in the fs and s3 stores: its `blobs` rows go with it (so GC
// never sees those files again), and a maintenance job removes its folder once the rows are gone.
// Deleting a site, then its tenant, through the API; another tenant's files stay.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectS3 } from '@sitemaps/storage';
import { startS3Server, waitUntil, type S3TestServer } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { ADMIN_KEY, startPlatform, type Platform } from './support/platform';
import { createTenant } from './support/tenant';

const PREFIX = 'files/';

describe.each(['fs', 's3'] as const)('files of deleted sites (%s store)', (driver) => {
  let platform: Platform;
  let dir: string;
  let s3: S3TestServer | undefined;
  let admin: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'site-files-'));
    const storage: Record<string, string> = { STORAGE_DRIVER: driver, STORAGE_DIR: dir };
    if (driver === 's3') {
      s3 = await startS3Server();
      const settings = s3.config(PREFIX);
      Object.assign(storage, {
        STORAGE_S3_BUCKET: settings.bucket,
        STORAGE_S3_PREFIX: PREFIX,
        STORAGE_S3_ENDPOINT: s3.endpoint,
        STORAGE_S3_FORCE_PATH_STYLE: 'true',
        STORAGE_S3_ACCESS_KEY_ID: settings.credentials?.accessKeyId ?? '',
        STORAGE_S3_SECRET_ACCESS_KEY: settings.credentials?.secretAccessKey ?? '',
      });
    }
    // Builds run only when the test asks for one: a change build (its PUT's) racing the explicit
    // one can publish a second index, and a publish that loses the race to switch the manifest
    // leaves the index it stored unreferenced until the site goes: 5 files, not 4.
    platform = await startPlatform({ ...storage, BUILD_QUIET_MS: '600000', BUILD_MAX_WAIT_MS: '600000' });
    admin = apiClient(platform.apiUrl, ADMIN_KEY);
  });
  afterAll(async () => {
    await platform?.close();
    await s3?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The stored files of a site, as paths below the store's root. */
  async function filesOf(siteId: string): Promise<string[]> {
    if (driver === 'fs') {
      const entries = await readdir(path.join(dir, siteId), { recursive: true, withFileTypes: true }).catch(() => []);
      return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
    }
    const settings = s3!.config(PREFIX);
    const { client } = await connectS3(settings);
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: `${PREFIX}${siteId}/` }),
    );
    return (listed.Contents ?? []).map((object) => object.Key ?? '');
  }

  /** A published site of `client`'s tenant, with its files in the store. */
  async function publishedSite(client: ReturnType<typeof apiClient>, host: string): Promise<string> {
    const siteId = (await client.post('/v1/sites', { hostname: host })).body.id as string;
    await client.put(
      `/v1/sites/${siteId}/urls`,
      ['a', 'b', 'c'].map((p) => ({ loc: `https://${host}/${p}`, section: p })),
    );
    const build = await client.post(`/v1/sites/${siteId}/builds`, {});
    expect(await client.waitForBuild(siteId, build.body.buildId)).toMatchObject({ status: 'published' });
    // Three shards and the index.
    expect(await filesOf(siteId)).toHaveLength(4);
    return siteId;
  }

  it('removes a deleted site’s files, then every site’s of a deleted tenant, and no one else’s', async () => {
    const { id: tenantId, api: client } = await createTenant(platform.apiUrl, `Leaving ${driver}`);
    const { api: other } = await createTenant(platform.apiUrl, `Staying ${driver}`);
    const [first, second, kept] = [
      await publishedSite(client, `one.${driver}.example.com`),
      await publishedSite(client, `two.${driver}.example.com`),
      await publishedSite(other, `kept.${driver}.example.com`),
    ];

    expect((await client.delete(`/v1/sites/${first}`)).status).toBe(204);
    await waitUntil('the deleted site’s files to go', async () => (await filesOf(first)).length === 0);
    expect(await filesOf(second)).toHaveLength(4);

    expect((await admin.delete(`/v1/tenants/${tenantId}`)).status).toBe(204);
    await waitUntil('the deleted tenant’s files to go', async () => (await filesOf(second)).length === 0);
    if (driver === 'fs') expect(await readdir(dir)).not.toContain(second);
    expect(await filesOf(kept)).toHaveLength(4);
  }, 180_000);
});
