// Persisted rows for storage tests: a site (with its tenant) and a manifest switch, as the
// publish step would leave them.
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { PrismaClient } from '@sitemaps/data';
import type { BlobStore, ManifestFile, ManifestFiles } from '@sitemaps/storage';

const gzipAsync = promisify(gzip);

export async function createSite(prisma: PrismaClient, overrides: { hostname?: string; scheme?: string } = {}) {
  const tenant = await prisma.tenant.create({ data: { name: 'test tenant' } });
  return prisma.site.create({
    data: {
      tenantId: tenant.id,
      hostname: overrides.hostname ?? `${randomBytes(4).toString('hex')}.example.com`,
      scheme: overrides.scheme ?? 'https',
      verificationStatus: 'verified',
      verifiedAt: new Date(),
    },
  });
}

/** Stores `text` gzipped and describes it as the manifest would. */
export async function storeFile(
  store: BlobStore,
  siteId: string,
  text: string,
  kind: ManifestFile['kind'] = 'shard',
): Promise<ManifestFile> {
  const body = Buffer.from(text);
  const packed = await gzipAsync(body);
  const sha256 = await store.put(siteId, packed, body.length);
  return { sha256, kind, byteSize: body.length, gzipSize: packed.length, urlCount: 0, lastmod: null };
}

/** Switches the site's manifest to `files` (version + 1), the way the publish step does. */
export async function switchManifest(prisma: PrismaClient, siteId: string, files: ManifestFiles): Promise<number> {
  const current = await prisma.manifest.findUnique({ where: { siteId }, select: { version: true } });
  const version = (current?.version ?? 0) + 1;
  const data = { version, buildId: crypto.randomUUID(), files: files as object, publishedAt: new Date() };
  await prisma.manifest.upsert({ where: { siteId }, create: { siteId, ...data }, update: data });
  return version;
}
