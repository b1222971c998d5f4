// A published site as the worker would leave it: tenant, site, blobs and a manifest row, with a
// real gzip <urlset> shard and a <sitemapindex> naming it.
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { PrismaClient } from '@sitemaps/data';
import type { BlobStore, ManifestFile, ManifestFiles } from '@sitemaps/storage';

const gzipAsync = promisify(gzip);

export async function createSite(
  prisma: PrismaClient,
  hostname: string,
  overrides: { scheme?: string; robotsTxt?: string; cacheMaxAge?: number; textSitemap?: boolean } = {},
) {
  const tenant = await prisma.tenant.create({ data: { name: `tenant of ${hostname}` } });
  // Verified: the public server serves nothing else.
  return prisma.site.create({
    data: { tenantId: tenant.id, hostname, verificationStatus: 'verified', verifiedAt: new Date(), ...overrides },
  });
}

export function urlsetXml(origin: string, paths: string[]): string {
  const urls = paths.map((path) => `  <url><loc>${origin}${path}</loc><lastmod>2026-01-15</lastmod></url>\n`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`;
}

export function sitemapIndexXml(origin: string, shardPaths: string[]): string {
  const entries = shardPaths
    .map((path) => `  <sitemap><loc>${origin}/${path}</loc><lastmod>2026-01-15</lastmod></sitemap>\n`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}</sitemapindex>\n`;
}

/** A file to store: its XML (or text), its kind in the manifest, and how many URLs it lists. */
export interface XmlFile {
  xml: string;
  kind: ManifestFile['kind'];
  urlCount?: number;
}

export async function storeXml(store: BlobStore, siteId: string, { xml, kind, urlCount = 0 }: XmlFile) {
  const body = Buffer.from(xml);
  const packed = await gzipAsync(body);
  const sha256 = await store.put(siteId, packed, body.length);
  const file: ManifestFile = {
    sha256,
    kind,
    byteSize: body.length,
    gzipSize: packed.length,
    urlCount,
    lastmod: '2026-01-15',
  };
  return { file, gzip: packed };
}

/** Switches the site's manifest (version + 1) and returns the new version. */
export async function switchManifest(
  prisma: PrismaClient,
  siteId: string,
  files: ManifestFiles,
  redirects: Record<string, string> = {},
): Promise<number> {
  const current = await prisma.manifest.findUnique({ where: { siteId }, select: { version: true } });
  const data = {
    version: (current?.version ?? 0) + 1,
    buildId: randomUUID(),
    files: files as object,
    redirects,
    publishedAt: new Date(),
  };
  await prisma.manifest.upsert({ where: { siteId }, create: { siteId, ...data }, update: data });
  return data.version;
}

/** A site with one shard of `paths` and an index, published. */
export async function publishSite(
  prisma: PrismaClient,
  store: BlobStore,
  hostname: string,
  paths = ['/', '/a', '/b?x=1&amp;y=2'],
) {
  const site = await createSite(prisma, hostname);
  const origin = `${site.scheme}://${site.hostname}`;
  const shardXml = urlsetXml(origin, paths);
  const shard = await storeXml(store, site.id, { xml: shardXml, kind: 'shard', urlCount: paths.length });
  const indexXml = sitemapIndexXml(origin, ['sitemap-1.xml.gz']);
  const index = await storeXml(store, site.id, { xml: indexXml, kind: 'index' });
  const version = await switchManifest(prisma, site.id, {
    'sitemap.xml': index.file,
    'sitemap-1.xml.gz': shard.file,
  });
  return { site, version, index: { ...index, xml: indexXml }, shard: { ...shard, xml: shardXml } };
}
