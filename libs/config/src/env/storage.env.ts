// Where published files live: Postgres, a directory or an S3-compatible store.
import { z } from 'zod';
import { flag, secret } from './env-types';

export const storageEnv = {
  STORAGE_DRIVER: z.enum(['postgres', 'fs', 's3']).default('postgres').meta({
    description: 'where published files live: `postgres`, `fs` or `s3` (any S3-compatible object store)',
  }),
  STORAGE_DIR: z.string().default('.data/files').meta({ description: 'directory of the `fs` driver' }),
  /** The `s3` driver: any S3-compatible object store. Required with it: the bucket. */
  STORAGE_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
    .optional()
    .meta({
      description:
        "the `s3` driver's bucket, and a key prefix ending in `/`; objects are `<prefix><site id>/<2 hex>/<sha256>.gz`, the `fs` driver's layout",
      docDefault: '— (required with `s3`)',
    }),
  /** Prepended to every object key; ends with `/` unless empty. */
  STORAGE_S3_PREFIX: z
    .string()
    .regex(/^([\w.-]+\/)*$/, 'must be empty or path segments ending with /')
    .default('')
    .meta({ docWith: 'STORAGE_S3_BUCKET', docDefault: 'empty' }),
  /** Unset: AWS S3 in STORAGE_S3_REGION. */
  STORAGE_S3_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .meta({
      description:
        'an S3-compatible endpoint (MinIO, Ceph, R2, …) and whether it wants `endpoint/bucket/key` URLs (most do)',
      docDefault: 'AWS',
    }),
  STORAGE_S3_REGION: z.string().min(1).default('us-east-1').meta({ docWith: 'STORAGE_S3_ENDPOINT' }),
  STORAGE_S3_FORCE_PATH_STYLE: flag.default(false).meta({ docWith: 'STORAGE_S3_ENDPOINT' }),
  /** Both or neither; neither: the SDK's default chain (instance role, web identity, shared config). */
  STORAGE_S3_ACCESS_KEY_ID: z.string().min(1).optional().meta(secret).meta({
    description: 'both or neither',
    docDefault: "unset: the AWS SDK's default chain (instance role, web identity, shared config)",
  }),
  STORAGE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional().meta(secret).meta({ docWith: 'STORAGE_S3_ACCESS_KEY_ID' }),
  /** Where a CDN serves the store's files (`<url>/<site id>/<2 hex>/<sha256>.gz`): the public server
   *  then answers a stored shard with a redirect there once it is not in its memory. */
  STORAGE_PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .meta({
      description:
        "a CDN serving the `fs` or `s3` store (`<url>/<site id>/<2 hex>/<sha256>.gz`): the public server answers a GET of a shard as stored (`.xml.gz`) with a 302 there; the index, robots.txt, `.xml` forms, HEAD and 304s stay on the site's host",
    }),
  /** How long a file dropped from a manifest stays downloadable for crawlers mid-fetch. */
  BLOB_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 60_000)
    .meta({ description: 'how long a file dropped from a manifest stays downloadable' }),
};
