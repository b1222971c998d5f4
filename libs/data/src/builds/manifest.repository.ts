// The manifests aggregate: what the public server serves for a site. A publish switches it in one
// transaction with everything that follows from it: compare-and-swap on the version, blobs
// released or kept, rendered shards marked clean, the build marked published.
import { LEGACY_SHARD_FOLDER, type ManifestFiles, type ManifestRedirects, type ShardVersions } from '@sitemaps/domain';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import {
  buildTimingsSchema,
  manifestFilesSchema,
  manifestRedirectsSchema,
  shardVersionsSchema,
  type BuildTimings,
} from './build.schemas';

export interface CurrentManifest {
  version: number;
  files: ManifestFiles;
  shards: ShardVersions;
  redirects: ManifestRedirects;
}

export interface ManifestSwitch {
  siteId: string;
  buildId: string;
  /** The version read before merging; null: the site has none yet. The switch fails if it changed. */
  expectedVersion: number | null;
  files: ManifestFiles;
  shards: ShardVersions;
  redirects: ManifestRedirects;
  /**
   * Blobs the new manifest does not list that the old one did or the publish stored (released now,
   * deleted after the grace period unless a later manifest lists them or a put makes them live).
   */
  dropped: string[];
  /** Renders merged in: their shards become clean if still at that version. */
  applied: { shardId: bigint; changeSeq: bigint }[];
  /** The build's totals, recorded as it is marked published. */
  totals: { shardsRendered: number; shardsSkipped: number; urlCount: number; byteSize: number; timings: BuildTimings };
  now: Date;
}

/** What the public server serves at a hostname: the site's settings and its current manifest. */
export interface ServedSite {
  id: string;
  hostname: string;
  scheme: string;
  robotsTxt: string | null;
  cacheMaxAge: number;
  indexNowKey: string;
  textSitemap: boolean;
  xslStylesheet: boolean;
  /** Null until the site's first publish. */
  manifest: {
    version: number;
    publishedAt: Date;
    files: ManifestFiles;
    /** Paths answered with a 301 to the path of the same file now. */
    redirects: ManifestRedirects;
    /** When each listed blob was first stored, by sha256 (a blob with no row is absent). */
    storedAt: ReadonlyMap<string, Date>;
  } | null;
}

export class ManifestRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * The site served at `hostname`: once its hostname is verified (at most one site per hostname
   * is), while its tenant is not suspended. Null for any other hostname.
   */
  async served(hostname: string): Promise<ServedSite | null> {
    const site = await this.prisma.site.findFirst({
      where: { hostname, verificationStatus: 'verified', tenant: { suspendedAt: null } },
      select: {
        id: true,
        hostname: true,
        scheme: true,
        robotsTxt: true,
        cacheMaxAge: true,
        indexNowKey: true,
        textSitemap: true,
        xslStylesheet: true,
        manifest: { select: { version: true, publishedAt: true, files: true, redirects: true } },
      },
    });
    if (!site) return null;
    const { manifest, ...settings } = site;
    if (!manifest) return { ...settings, manifest: null };
    const files = manifestFilesSchema.parse(manifest.files);
    const blobs = await this.prisma.blob.findMany({
      where: { siteId: site.id, sha256: { in: [...new Set(Object.values(files).map((file) => file.sha256))] } },
      select: { sha256: true, createdAt: true },
    });
    const storedAt = new Map(blobs.map((blob) => [blob.sha256, blob.createdAt]));
    return {
      ...settings,
      manifest: {
        version: manifest.version,
        publishedAt: manifest.publishedAt,
        files,
        redirects: manifestRedirectsSchema.parse(manifest.redirects),
        storedAt,
      },
    };
  }

  async current(siteId: string): Promise<CurrentManifest | null> {
    const row = await this.prisma.manifest.findUnique({ where: { siteId } });
    return row
      ? {
          version: row.version,
          files: manifestFilesSchema.parse(row.files),
          shards: shardVersionsSchema.parse(row.shards),
          redirects: manifestRedirectsSchema.parse(row.redirects),
        }
      : null;
  }

  /** Sites whose manifest still lists shards in the legacy folder (none once every site has built since). */
  async sitesWithLegacyPaths(): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ site_id: string }[]>`
      SELECT m.site_id::text AS site_id FROM manifests m
       WHERE EXISTS (SELECT 1 FROM jsonb_object_keys(m.files) AS path WHERE path LIKE ${`${LEGACY_SHARD_FOLDER}%`})`;
    return rows.map((row) => row.site_id);
  }

  /**
   * Switches the manifest; false when another publish switched it since `expectedVersion` was
   * read. One statement (its parts see each other's RETURNING rows and commit together): a
   * one-URL change waits for this, and an interactive transaction cost a round trip per step.
   */
  async switch(next: ManifestSwitch): Promise<boolean> {
    const { siteId, buildId, now, totals } = next;
    const files = JSON.stringify(manifestFilesSchema.parse(next.files));
    const shards = JSON.stringify(shardVersionsSchema.parse(next.shards));
    const redirects = JSON.stringify(manifestRedirectsSchema.parse(next.redirects));
    const timings = JSON.stringify(buildTimingsSchema.parse(totals.timings));
    const live = [...new Set(Object.values(next.files).map((file) => file.sha256))];
    const manifest =
      next.expectedVersion !== null
        ? Prisma.sql`UPDATE manifests SET version = ${next.expectedVersion + 1}, build_id = ${buildId}::uuid,
                       files = ${files}::jsonb, shards = ${shards}::jsonb, redirects = ${redirects}::jsonb,
                       published_at = ${now}::timestamptz
                      WHERE site_id = ${siteId}::uuid AND version = ${next.expectedVersion} RETURNING site_id`
        : Prisma.sql`INSERT INTO manifests (site_id, version, build_id, files, shards, redirects, published_at)
                     VALUES (${siteId}::uuid, 1, ${buildId}::uuid, ${files}::jsonb, ${shards}::jsonb,
                             ${redirects}::jsonb, ${now}::timestamptz)
                     ON CONFLICT (site_id) DO NOTHING RETURNING site_id`;
    // Every other part runs only if the switch did. A shard that changed again after its render
    // keeps its dirty flag: the next build picks it up.
    const rows = await this.prisma.$queryRaw<{ switched: number }[]>`
      WITH switched AS (${manifest}),
      released AS (
        UPDATE blobs SET released_at = ${now}::timestamptz
         WHERE site_id = ${siteId}::uuid AND sha256 = ANY(${next.dropped}::text[]) AND released_at IS NULL
           AND EXISTS (SELECT 1 FROM switched)),
      kept AS (
        UPDATE blobs SET released_at = NULL
         WHERE site_id = ${siteId}::uuid AND sha256 = ANY(${live}::text[]) AND released_at IS NOT NULL
           AND EXISTS (SELECT 1 FROM switched)),
      cleaned AS (
        UPDATE shards s SET dirty = false
          FROM unnest(${next.applied.map((a) => a.shardId)}::bigint[], ${next.applied.map((a) => a.changeSeq)}::bigint[]) AS r(id, seq)
         WHERE s.id = r.id AND s.change_seq = r.seq AND EXISTS (SELECT 1 FROM switched)),
      finished AS (
        UPDATE builds SET status = 'published', finished_at = ${now}::timestamptz,
               shards_rendered = ${totals.shardsRendered}, shards_skipped = ${totals.shardsSkipped},
               url_count = ${totals.urlCount}, byte_size = ${BigInt(totals.byteSize)}, timings = ${timings}::jsonb
         WHERE id = ${buildId}::uuid AND EXISTS (SELECT 1 FROM switched))
      SELECT count(*)::int AS switched FROM switched`;
    return (rows[0]?.switched ?? 0) === 1;
  }
}
