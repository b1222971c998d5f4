// docs/backup-restore.md, done to a running platform with the `fs` blob store: pg_dump of the
// database (custom format), then a copy of STORAGE_DIR. Restored into an empty database and an
// empty directory, with a Redis namespace that never saw the platform (a new QUEUE_PREFIX: Redis
// holds nothing a restore needs), the apps serve every published file byte for byte, with the same
// ETags, and go on building. pg_dump and pg_restore are the machine's PostgreSQL client tools, as
// an operator has them; the test is skipped, saying why, where none is as new as the server.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '@sitemaps/data';
import { createTestDatabase, rawRequest, waitUntil, type TestDatabase } from '@sitemaps/testing';
import { apiClient } from './support/api-client';
import { crawl, locsOf } from './support/crawler';
import { startPlatform, type Platform } from './support/platform';
import { createTenant } from './support/tenant';

const execFileAsync = promisify(execFile);
const HOST = 'backed-up.example.com';
const url = (page: string) => `https://${HOST}${page}`;

/** The newest PostgreSQL client tools on the machine, if they are at least the server's major version. */
function clientTools(serverMajor: number): string | undefined {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(path.join(root, name, 'bin', 'pg_dump')))
        .map(Number)
        .filter((major) => major >= serverMajor)
    : [];
  const newest = majors.sort((a, b) => b - a)[0];
  return newest === undefined ? undefined : path.join(root, String(newest), 'bin');
}

async function serverMajor(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    return Math.floor(Number(rows[0]?.v) / 10_000);
  } finally {
    await client.end();
  }
}

/** Every file a crawler fetches, by path: the index (XML), the shards as stored (gzip) and robots.txt. */
async function servedFiles(publicUrl: string): Promise<Map<string, { body: Buffer; etag: string | null }>> {
  const { index, shards } = await crawl(publicUrl, HOST);
  const robots = await rawRequest(publicUrl, '/robots.txt', { host: HOST });
  const files = new Map<string, { body: Buffer; etag: string | null }>();
  for (const file of [index, ...shards]) {
    expect(file.status, file.path).toBe(200);
    files.set(file.path, { body: file.body, etag: file.etag });
  }
  files.set('robots.txt', { body: robots.body, etag: String(robots.headers.etag) });
  return files;
}

/** The statuses of a site's builds, newest first, once there are `count` and none is queued or running. */
function settledBuilds(client: ReturnType<typeof apiClient>, siteId: string, count: number): Promise<string[]> {
  return waitUntil(
    `${count} finished builds`,
    async (seen) => {
      const items = seen((await client.get(`/v1/sites/${siteId}/builds?limit=100`)).body.items as { status: string }[]);
      const statuses = items.map((build) => build.status);
      return statuses.length >= count && statuses.every((s) => s === 'published' || s === 'failed')
        ? statuses
        : undefined;
    },
    { timeoutMs: 60_000 },
  );
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('backup and restore', () => {
  const dirs: string[] = [];
  const tempDir = async (label: string) => {
    const dir = await mkdtemp(path.join(tmpdir(), `sitemaps-${label}-`));
    dirs.push(dir);
    return dir;
  };
  let platform: Platform;
  let restored: Platform | undefined;
  let bin: string | undefined;

  beforeAll(async () => {
    platform = await startPlatform({ STORAGE_DRIVER: 'fs', STORAGE_DIR: await tempDir('files') });
    bin = clientTools(await serverMajor(platform.db.url));
  }, 60_000);

  afterAll(async () => {
    await restored?.close();
    await platform?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('restores a running platform from pg_dump and a copy of the blob directory, serving the same bytes', async (context) => {
    if (!bin) {
      context.skip(`no pg_dump under /usr/lib/postgresql as new as the server (apt-get install postgresql-client)`);
      return;
    }
    const { apiKey: tenantKey, api: tenant } = await createTenant(platform.apiUrl, 'Backed up');
    const site = (await tenant.post('/v1/sites', { hostname: HOST, scheme: 'https' })).body as { id: string };
    const pages = Array.from({ length: 60 }, (_, i) => ({
      loc: url(`/p/${i}`),
      ...(i % 3 === 0 ? { section: 'blog' } : {}),
      alternates: [
        { hreflang: 'en', href: url(`/p/${i}`) },
        { hreflang: 'de', href: url(`/de/p/${i}`) },
      ],
    }));
    expect((await tenant.put(`/v1/sites/${site.id}/urls`, pages)).body.errors).toEqual([]);
    const built = await settledBuilds(tenant, site.id, 1);
    expect(built).toContain('published');
    const before = await servedFiles(platform.publicUrl);
    expect(before.size).toBeGreaterThanOrEqual(4);

    // The backup, while the platform runs: the database first, then the files (within BLOB_GRACE_MS).
    const backup = await tempDir('backup');
    const dump = path.join(backup, 'sitemaps.dump');
    await execFileAsync(path.join(bin, 'pg_dump'), ['--format=custom', `--file=${dump}`, platform.db.url]);
    await cp(platform.config.storage.dir, path.join(backup, 'files'), { recursive: true });

    // The restore: an empty database, an empty directory.
    const db: TestDatabase = await createTestDatabase({ empty: true });
    await execFileAsync(path.join(bin, 'pg_restore'), [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      `--dbname=${db.url}`,
      dump,
    ]);
    const storageDir = path.join(await tempDir('restored'), 'files');
    await cp(path.join(backup, 'files'), storageDir, { recursive: true });
    expect(await filesUnder(storageDir)).toEqual(await filesUnder(platform.config.storage.dir));
    // The migration history came with it: nothing to apply.
    expect(await applyMigrations(db.url)).toEqual([]);

    restored = await startPlatform({ STORAGE_DRIVER: 'fs', STORAGE_DIR: storageDir }, { db });
    expect(restored.config.queuePrefix).not.toBe(platform.config.queuePrefix);
    const after = await servedFiles(restored.publicUrl);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [file, { body, etag }] of before) {
      expect(after.get(file)?.etag, file).toBe(etag);
      expect(after.get(file)?.body.equals(body), file).toBe(true);
    }

    // The same tenant key works on the restore, and a change builds and publishes there.
    const again = apiClient(restored.apiUrl, tenantKey);
    expect((await again.put(`/v1/sites/${site.id}/urls`, [{ loc: url('/after-restore') }])).body.errors).toEqual([]);
    expect((await settledBuilds(again, site.id, built.length + 1))[0]).toBe('published');
    const { shards } = await crawl(restored.publicUrl, HOST);
    expect(shards.flatMap((shard) => locsOf(shard.xml))).toContain(url('/after-restore'));
  }, 180_000);
});
