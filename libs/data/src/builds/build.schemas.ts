// The JSON columns of builds, shard renders and manifests. Written and read through these schemas
// only (by the repositories), so a row that drifted from its shape fails loudly where it is read.
import { z } from 'zod';
import type { ManifestFile, ManifestFiles, ManifestRedirects, RenderedFile, ShardVersions } from '@sitemaps/domain';

const BLOB_KEY = /^[0-9a-f]{64}$/;

export const manifestFileSchema = z.object({
  sha256: z.string().regex(BLOB_KEY),
  kind: z.enum(['index', 'shard', 'text']),
  byteSize: z.number().int().nonnegative(),
  gzipSize: z.number().int().nonnegative(),
  urlCount: z.number().int().nonnegative(),
  lastmod: z.string().nullable(),
  modifiedAt: z.iso.datetime().optional(),
}) satisfies z.ZodType<ManifestFile>;

/** `manifests.files` */
export const manifestFilesSchema = z.record(z.string(), manifestFileSchema) satisfies z.ZodType<ManifestFiles>;

/** `manifests.redirects`: old path -> current path. */
export const manifestRedirectsSchema = z.record(z.string(), z.string()) satisfies z.ZodType<ManifestRedirects>;

/** `manifests.shards` */
export const shardVersionsSchema = z.record(
  z.string(),
  z.object({ changeSeq: z.string().regex(/^\d+$/), paths: z.array(z.string()) }),
) satisfies z.ZodType<ShardVersions>;

/** `shard_renders.files` */
export const renderedFilesSchema = z.array(manifestFileSchema.extend({ path: z.string() })) satisfies z.ZodType<
  RenderedFile[]
>;

/** `shard_renders.timings`: milliseconds per stage of one shard's render. */
export const stageTimingsSchema = z.object({
  /** Reading rows; on the streaming path this overlaps with gzip and is counted there. */
  readMs: z.number(),
  renderMs: z.number(),
  gzipMs: z.number(),
  storeMs: z.number(),
});
export type StageTimings = z.infer<typeof stageTimingsSchema>;

/** `builds.timings`: the shard stages summed over the build, and its wall time. */
export const buildTimingsSchema = stageTimingsSchema.extend({ wallMs: z.number().nullable() });
export type BuildTimings = z.infer<typeof buildTimingsSchema>;

/**
 * `shard_renders.slices`: how the render's one file is cut into slices (libs/sitemap-xml's
 * gzipUrlsetSlices): the blob, the urlset head in its first slice, the shard's id bounds, and per
 * slice where its deflate bytes sit, their CRC-32 and uncompressed length, and the state of its URLs.
 */
export const renderSlicesSchema = z.object({
  v: z.literal(1),
  sha256: z.string().regex(BLOB_KEY),
  gzipSize: z.number().int().positive(),
  head: z.string(),
  bounds: z.array(z.string().regex(/^\d+$/)),
  /** The slices this render deflated (all of them unless it spliced the previous file). */
  rendered: z.array(z.number().int().nonnegative()),
  slices: z
    .array(
      z.object({
        offset: z.number().int().nonnegative(),
        size: z.number().int().nonnegative(),
        crc: z.number().int().nonnegative(),
        length: z.number().int().nonnegative(),
        urls: z.number().int().nonnegative(),
        stamp: z.string(),
      }),
    )
    .min(1),
});
export type RenderSlices = z.infer<typeof renderSlicesSchema>;
