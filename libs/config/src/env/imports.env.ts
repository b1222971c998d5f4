// Imports of existing sitemaps: what they may fetch and how much.
import { z } from 'zod';
import { flag } from './env-types';

export const importsEnv = {
  /** Importing existing sitemaps fetches customer-given URLs: private, loopback and link-local
   *  addresses are refused unless this is set (tests serve sitemaps on 127.0.0.1). */
  IMPORT_ALLOW_PRIVATE_ADDRESSES: flag.default(false).meta({
    description: 'let sitemap imports fetch private, loopback and link-local addresses (tests only)',
  }),
  /** Per fetched file (decompressed), per import (all files), files per import, index nesting. */
  IMPORT_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(100 * 1024 * 1024)
    .meta({
      description:
        'sitemap import size bounds, uncompressed: counted after every decompression layer (`Content-Encoding` and a `.gz` file); the total also bounds one upload (413 `UPLOAD_TOO_LARGE`)',
      docDefault: '100 MiB',
    }),
  IMPORT_MAX_TOTAL_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(4 * 1024 * 1024 * 1024)
    .meta({ docWith: 'IMPORT_MAX_FILE_BYTES', docDefault: '4 GiB' }),
  IMPORT_MAX_FILES: z.coerce
    .number()
    .int()
    .min(1)
    .default(1_000)
    .meta({ description: 'sitemap import: files, index nesting, redirects per fetch' }),
  /** Decompressed bytes per compressed byte, judged past 8 MiB: sitemaps, NDJSON and CSV compress
   *  15 to 25 times; a gzip bomb a thousand. */
  IMPORT_MAX_COMPRESSION_RATIO: z.coerce.number().int().min(2).default(100).meta({
    description:
      'decompressed bytes per byte received, judged past 8 MiB, for uploads (413 `COMPRESSION_RATIO_TOO_HIGH`) and each fetched sitemap file (rejection `COMPRESSION_RATIO_TOO_HIGH`); real files compress 15–25×',
  }),
  IMPORT_MAX_DEPTH: z.coerce.number().int().min(0).max(10).default(2).meta({ docWith: 'IMPORT_MAX_FILES' }),
  IMPORT_MAX_REDIRECTS: z.coerce.number().int().min(0).max(20).default(5).meta({ docWith: 'IMPORT_MAX_FILES' }),
  /** Whole sitemaps import, and each request (connect, and silence between bytes). */
  IMPORT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(30 * 60_000)
    .meta({ description: 'sitemap import: whole job, one request', docDefault: '30 min' }),
  IMPORT_REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(30_000)
    .meta({ docWith: 'IMPORT_TIMEOUT_MS', docDefault: '30 s' }),
};
