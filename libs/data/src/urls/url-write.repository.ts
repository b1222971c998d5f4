// The batch write of a site's URL rows (libs/ingest's UrlBatchWriter), inside the caller's
// transaction and under the site's URL lock: the stored state of the URLs a batch names, and
// the rows it writes. Set-based throughout, so a batch costs a handful of round trips whatever
// its size: lookups probe the loc-hash index once per hash (`byLocHash`), and rows go in with
// binary COPY, straight into `urls` for new rows and through a temporary table for updates. The
// lock is what keeps one row per loc and site: no unique index does (a hash index cannot be
// unique), so nothing may insert into `urls` but this, under it. `stage` encodes a new row ahead
// of its batch (bulk imports).
import type { PoolClient } from 'pg';
import { lastmodInstant, type Links } from '@sitemaps/domain';
import type { SitemapUrl } from '@sitemaps/sitemap-xml';
import { copyRows, hashList, packHashes, type CopyType, type EncodedFields, type FieldArena } from '../copy/pg-copy';
import type { Queryable } from './url.repository';

/** What a write needs to know of a stored URL, live or deleted. */
export interface ExistingUrl {
  id: string;
  loc_hash: Buffer;
  section: string;
  shard_id: string | null;
  fragment_size: number;
  deleted: boolean;
  content_hash: Buffer;
  alternates: Links | null;
  /** What its fragment says, and whether the client said it. */
  lastmod: string | null;
  lastmod_given: boolean;
}

/** A live URL outside the batch whose cluster changed: re-rendered from what is stored. */
export interface PeerUrl extends ExistingUrl {
  loc: string;
  changefreq: string | null;
  priority: number | null;
  images: SitemapUrl['images'] | null;
  videos: SitemapUrl['videos'] | null;
  news: SitemapUrl['news'] | null;
}

/** The columns every write of a URL row sets, new or updated. */
export interface UrlRowValues {
  loc: string;
  section: string;
  /** None while unknown: the client gave none and the platform has not seen the URL change. */
  lastmod: string | null;
  lastmodGiven: boolean;
  changefreq: string | null;
  priority: number | null;
  images: unknown;
  videos: unknown;
  news: unknown;
  /** The links' JSON, the `alternates` column. */
  alternates: string | null;
  newsUntil: Date | null;
  contentHash: Buffer;
  fragment: string;
  fragmentSize: number;
  nsMask: number;
}

/** A new URL: its row, or its row staged ahead (`stage`); the shard comes last in both. */
export type NewUrlRow = { shardId: string | null } & (
  ({ kind: 'row'; hash: Buffer } & UrlRowValues) | { kind: 'staged'; fields: EncodedFields }
);

/** A stored URL's new row (revived, moved or re-rendered). */
export type UrlRowUpdate = { id: string | null; shardId: string | null } & UrlRowValues;

/** What a soft delete selects among the site's live URLs. */
export type UrlSelection =
  | { locHashes: readonly Buffer[] }
  /** Those a replace import did not see: absent from its session's `import_seen` table. */
  | { notSeenByImport: true };

export interface SoftDeleted {
  count: number;
  /** Per shard, the URLs and bytes it lost (negative). */
  shards: Map<string, { count: number; bytes: number }>;
  /** Those that were in a cluster, with the links they had: their peers drop them. */
  departed: { hash: Buffer; href: string; links: Links }[];
  /** Their locs, when at most `listUpTo` were deleted; else empty. */
  locs: string[];
}

/** In `UrlRowValues` order (see `rowValues`). */
const ROW_COLUMNS = {
  loc: 'text',
  section: 'text',
  lastmod: 'text',
  lastmod_at: 'timestamptz',
  lastmod_given: 'bool',
  changefreq: 'text',
  priority: 'float4',
  images: 'jsonb',
  videos: 'jsonb',
  news: 'jsonb',
  alternates: 'json',
  news_until: 'timestamptz',
  content_hash: 'bytea',
  fragment: 'text',
  fragment_size: 'int4',
  ns_mask: 'int4',
} as const satisfies Record<string, CopyType>;
const INSERT_COLUMNS = {
  site_id: 'uuid',
  loc_hash: 'bytea',
  ...ROW_COLUMNS,
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  shard_id: 'int8',
} as const;
const UPDATE_COLUMNS = { id: 'int8', ...ROW_COLUMNS, shard_id: 'int8' } as const;
/** A staged row is every insert column but the last, the shard. */
const STAGED_TYPES = Object.values(INSERT_COLUMNS).slice(0, -1);

/**
 * The rows among the loc hashes packed in parameter $n, as a FROM item named `urls`: one probe of
 * the loc-hash index per hash, so a hash given twice finds its row twice. Per hash, not
 * `loc_hash = ANY(array)`: a hash index keeps only a 32-bit code of the key, so each row it finds
 * is rechecked, and against an array that walks the array (bench:scale's lookup of 10,000 stored
 * hashes: 0.61–0.64 s, against 32–42 ms probed one by one). The fence (OFFSET 0) keeps the
 * planner from reading a site's rows through `(site_id, updated_at)` instead, as it would where
 * statistics are missing or older than the site's growth: a scan of the whole site per batch.
 * The caller keeps its site's rows; another site's row of the same loc is read and dropped (the
 * same host in two tenants, rare).
 */
function byLocHash(param: number): string {
  return `unnest(${hashList(param)}) AS wanted (hash)
    CROSS JOIN LATERAL (SELECT * FROM urls WHERE urls.loc_hash = wanted.hash OFFSET 0) AS urls`;
}

const SELECTIONS = {
  locHashes: `id IN (SELECT id FROM ${byLocHash(3)})`,
  notSeenByImport: 'NOT EXISTS (SELECT 1 FROM import_seen s WHERE s.loc_hash = urls.loc_hash)',
};

export class UrlWriteRepository {
  /** The stored URLs (live or deleted) among `hashes`, by loc hash in hex. */
  async findExisting(db: Queryable, siteId: string, hashes: readonly Buffer[]): Promise<Map<string, ExistingUrl>> {
    if (hashes.length === 0) return new Map();
    const { rows } = await db.query<ExistingUrl>(
      `SELECT id, loc_hash, section, shard_id, fragment_size, deleted_at IS NOT NULL AS deleted, content_hash, alternates,
              lastmod, lastmod_given
         FROM ${byLocHash(2)} WHERE site_id = $1`,
      [siteId, packHashes(hashes)],
    );
    return new Map(rows.map((row) => [row.loc_hash.toString('hex'), row]));
  }

  /** The live URLs among `hashes` (distinct), with what re-rendering them needs. */
  async findLivePeers(db: Queryable, siteId: string, hashes: readonly Buffer[]): Promise<PeerUrl[]> {
    if (hashes.length === 0) return [];
    const { rows } = await db.query<PeerUrl>(
      `SELECT id, loc_hash, loc, section, shard_id, fragment_size, false AS deleted, content_hash, alternates,
              lastmod, lastmod_given, changefreq, priority, images, videos, news
         FROM ${byLocHash(2)} WHERE site_id = $1 AND deleted_at IS NULL`,
      [siteId, packHashes(hashes)],
    );
    return rows;
  }

  /**
   * `row` as a new URL's insert, encoded now but for its shard (`NewUrlRow`'s `staged`). `now` is
   * the one `insert` will get; `arena` must not be cleared before that insert has finished.
   */
  stage(arena: FieldArena, row: { siteId: string; hash: Buffer; values: UrlRowValues; now: Date }): EncodedFields {
    return arena.encode(STAGED_TYPES, [row.siteId, row.hash, ...rowValues(row.values), row.now, row.now]);
  }

  /** Copies new rows straight into `urls`. */
  async insert(db: PoolClient, batch: { siteId: string; rows: readonly NewUrlRow[]; now: Date }): Promise<void> {
    const { siteId, rows, now } = batch;
    if (rows.length === 0) return;
    await copyRows(db, {
      table: 'urls',
      columns: INSERT_COLUMNS,
      rows,
      toRow: (w) =>
        w.kind === 'staged'
          ? { encoded: w.fields, rest: [w.shardId] }
          : [siteId, w.hash, ...rowValues(w), now, now, w.shardId],
    });
  }

  /** Rewrites stored rows (and revives deleted ones) from a COPY into a temporary table. */
  async update(db: PoolClient, rows: readonly UrlRowUpdate[], now: Date): Promise<void> {
    if (rows.length === 0) return;
    await db.query(
      `CREATE TEMP TABLE IF NOT EXISTS ingest_url_updates (
         id bigint, loc text, section text, shard_id bigint, lastmod text, lastmod_at timestamptz, lastmod_given boolean,
         changefreq text, priority real, images jsonb, videos jsonb, news jsonb, alternates json, news_until timestamptz,
         content_hash bytea, fragment text, fragment_size int, ns_mask int) ON COMMIT DELETE ROWS`,
    );
    await db.query('TRUNCATE ingest_url_updates');
    await copyRows(db, {
      table: 'ingest_url_updates',
      columns: UPDATE_COLUMNS,
      rows,
      toRow: (w) => [w.id, ...rowValues(w), w.shardId],
    });
    await db.query(
      `UPDATE urls u SET loc = s.loc, section = s.section, shard_id = s.shard_id, lastmod = s.lastmod, lastmod_at = s.lastmod_at,
              lastmod_given = s.lastmod_given, changefreq = s.changefreq, priority = s.priority, images = s.images, videos = s.videos,
              news = s.news, alternates = s.alternates, news_until = s.news_until, content_hash = s.content_hash, fragment = s.fragment,
              fragment_size = s.fragment_size, ns_mask = s.ns_mask, updated_at = $1, deleted_at = NULL
         FROM ingest_url_updates s WHERE u.id = s.id`,
      [now],
    );
  }

  /**
   * Soft-deletes the site's live URLs that `selection` names. A deleted row keeps its last
   * content, links included. The caller keeps the shards' counters and the site's URL count.
   */
  async softDelete(
    db: Queryable,
    deletion: { siteId: string; selection: UrlSelection; now: Date; listUpTo: number },
  ): Promise<SoftDeleted> {
    const { siteId, selection, now } = deletion;
    await db.query(
      `CREATE TEMP TABLE IF NOT EXISTS ingest_deleted (loc_hash bytea, loc text, shard_id bigint, fragment_size int, alternates json) ON COMMIT DELETE ROWS`,
    );
    await db.query('TRUNCATE ingest_deleted');
    const [where, params] =
      'locHashes' in selection
        ? [SELECTIONS.locHashes, [packHashes(selection.locHashes)]]
        : [SELECTIONS.notSeenByImport, []];
    const { rowCount } = await db.query(
      `WITH gone AS (
         UPDATE urls SET deleted_at = $2, updated_at = $2 WHERE site_id = $1 AND deleted_at IS NULL AND (${where})
         RETURNING loc_hash, loc, shard_id, fragment_size, alternates)
       INSERT INTO ingest_deleted SELECT * FROM gone`,
      [siteId, now, ...params],
    );
    const count = rowCount ?? 0;
    if (count === 0) return { count: 0, shards: new Map(), departed: [], locs: [] };
    const sums = await db.query<{ shard_id: string; n: number; bytes: number }>(
      `SELECT shard_id, count(*)::int AS n, sum(fragment_size)::int AS bytes FROM ingest_deleted WHERE shard_id IS NOT NULL GROUP BY shard_id`,
    );
    // Only live rows' links were read: a deleted page must not stay listed by its translations.
    const clustered = await db.query<{ loc_hash: Buffer; loc: string; alternates: Links }>(
      'SELECT loc_hash, loc, alternates FROM ingest_deleted WHERE alternates IS NOT NULL',
    );
    const locs =
      count <= deletion.listUpTo
        ? (await db.query<{ loc: string }>('SELECT loc FROM ingest_deleted')).rows.map((row) => row.loc)
        : [];
    return {
      count,
      shards: new Map(sums.rows.map((row) => [row.shard_id, { count: -row.n, bytes: -row.bytes }])),
      departed: clustered.rows.map((row) => ({ hash: row.loc_hash, href: row.loc, links: row.alternates })),
      locs,
    };
  }
}

/** In ROW_COLUMNS order. */
function rowValues(w: UrlRowValues) {
  return [
    w.loc,
    w.section,
    w.lastmod,
    w.lastmod === null ? null : lastmodInstant(w.lastmod),
    w.lastmodGiven,
    w.changefreq,
    w.priority,
    json(w.images),
    json(w.videos),
    json(w.news),
    w.alternates,
    w.newsUntil,
    w.contentHash,
    w.fragment,
    w.fragmentSize,
    w.nsMask,
  ];
}

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
