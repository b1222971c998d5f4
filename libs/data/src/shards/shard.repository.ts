// The shards aggregate: a site's sitemap files' worth of URLs, and the snapshot a render reads.
// URL placement in shards is part of the URL write (libs/ingest's shard placement).
import {
  exclusionPatterns,
  sliceBounds,
  validateExclusionRules,
  type SliceBounds,
  type SliceState,
  validateShardSizes,
  type ShardMerge,
  type ShardSize,
  type ShardSizes,
} from '@sitemaps/domain';
import type { Pool, PoolClient } from 'pg';
import type { PrismaClient, Shard } from '../generated/prisma/client';
import { sqlLocHash } from '../copy/pg-copy';
import { closingError } from '../prisma';
import { inTransaction, lockSiteUrls } from '../urls/url.repository';
import { readShardFragments } from './copy-fragments.reader';

export type { Shard } from '../generated/prisma/client';

/** A shard as a render sees it: its identity, version and the totals of its live URLs. */
export interface ShardHead {
  section: string;
  ordinal: number;
  change_seq: string;
  urls: number;
  bytes: string;
  mask: number;
  newest: string | null;
  /** Its site names its sitemap.xsl in its files (sites.xsl_stylesheet). */
  xsl: boolean;
  /** The lowest and highest id of its live URLs (null when it has none): where to split a read. */
  first_id: string | null;
  last_id: string | null;
}

export interface FragmentRow {
  fragment: string;
  fragment_size: number;
  ns_mask: number;
  lastmod: string | null;
  lastmod_at: Date | null;
  /** Its hreflang links; read only when the site excludes URLs (see `excludedLinks`). */
  alternates?: { hreflang: string; href: string }[] | null;
}

/** Reads of one shard inside one REPEATABLE READ snapshot, so its head and its fragments agree. */
export interface ShardSnapshot {
  head(): Promise<ShardHead | null>;
  /** The fragments of its live URLs in id order, as blocks of bytes (binary COPY). */
  streamFragments(): AsyncGenerator<Buffer>;
  /**
   * The same fragments as up to `parts` consecutive id ranges, each read by its own connection
   * on this same snapshot, to be consumed concurrently. Fewer when the shard is small or the
   * pool has no connection to spare (never waits for one: renders holding one each must not
   * deadlock waiting for a second).
   */
  streamFragmentParts(head: ShardHead, parts: number): Promise<AsyncGenerator<Buffer>[]>;
  /**
   * The head, and the state of each slice of the shard cut at `bounds` (or cut afresh into slices
   * of about `sliceUrls` when null), in one pass over its rows. Null when the shard is gone.
   */
  slicedHead(
    bounds: SliceBounds | null,
    sliceUrls: number,
  ): Promise<{ head: ShardHead; bounds: SliceBounds; slices: SliceState[] } | null>;
  /**
   * The fragments of the slices at `indexes` (of the shard cut at `bounds`), one stream each, in
   * that order, grouped in lanes: up to two connections on this snapshot, each reading its lane's
   * slices one after another (to be read concurrently lane by lane, in order within a lane).
   */
  streamSlices(head: ShardHead, bounds: SliceBounds, indexes: readonly number[]): Promise<AsyncGenerator<Buffer>[][]>;
  /** The same, row by row, with what splitting it into parts needs. */
  fragmentRows(): Promise<FragmentRow[]>;
  /**
   * The hrefs of its URLs' hreflang links that name a URL the site excludes (by rule or flag),
   * which its files must not link to; null when the site excludes nothing, so that no row needs
   * a second look. Excluded URLs themselves are left out of every read above.
   */
  excludedLinks(): Promise<Set<string> | null>;
}

/** What keeps a site's URLs out of its files, as a render reads it. */
interface PublishedFilter {
  /** The site's exclusion rules as patterns for `~`. */
  patterns: string[];
  /** Whether the site excludes anything: rules, or URLs flagged by the client. */
  active: boolean;
}

export class ShardRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: Pool,
    /** Below this many URLs a shard is read on one connection: a second costs more than it saves. */
    private readonly splitMinUrls = 10_000,
  ) {}

  count(siteId: string): Promise<number> {
    return this.prisma.shard.count({ where: { siteId } });
  }

  /** Ids of the site's shards in id order, or only of the dirty ones. */
  async ids(siteId: string, opts: { dirtyOnly: boolean }): Promise<bigint[]> {
    const rows = await this.prisma.shard.findMany({
      where: { siteId, ...(opts.dirtyOnly ? { dirty: true } : {}) },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    return rows.map((row) => row.id);
  }

  /** The site's shards in id order (the order they were created), after `afterId`, at most `limit`. */
  listForSite(siteId: string, page: { afterId: string | undefined; limit: number }): Promise<Shard[]> {
    return this.prisma.shard.findMany({
      where: { siteId, ...(page.afterId ? { id: { gt: BigInt(page.afterId) } } : {}) },
      orderBy: { id: 'asc' },
      take: page.limit,
    });
  }

  /** Sites with a non-empty shard holding fewer than `urls` URLs. */
  async sitesWithShardsUnder(urls: number): Promise<string[]> {
    const rows = await this.prisma.shard.findMany({
      where: { urlCount: { gt: 0, lt: urls } },
      distinct: ['siteId'],
      select: { siteId: true },
    });
    return rows.map((row) => row.siteId);
  }

  /**
   * Compacts the site's shards under its URL write lock (shard placement must not append to a
   * shard being merged away): `plan` gets the non-empty shards in (section, ordinal) order and
   * returns the merges, applied in order. Returns how many shards were emptied into a neighbour.
   */
  compact(siteId: string, plan: (shards: ShardSize[], sizes: ShardSizes) => ShardMerge[]): Promise<number> {
    return inTransaction(this.pool, async (db) => {
      await lockSiteUrls(db, siteId);
      const site = await db.query<{ shard_size: number | null; section_shard_sizes: unknown }>(
        'SELECT shard_size, section_shard_sizes FROM sites WHERE id = $1',
        [siteId],
      );
      const sizes = validateShardSizes({
        shardSize: site.rows[0]?.shard_size,
        sectionShardSizes: site.rows[0]?.section_shard_sizes,
      });
      const { rows } = await db.query<ShardSize>(
        `SELECT id::text, section, ordinal, url_count AS "urlCount", byte_size AS "byteSize" FROM shards
          WHERE site_id = $1 AND url_count > 0 ORDER BY section, ordinal`,
        [siteId],
      );
      const merges = plan(rows, sizes);
      for (const merge of merges) {
        await db.query('UPDATE urls SET shard_id = $1 WHERE shard_id = $2', [merge.into, merge.from]);
        await db.query(
          `UPDATE shards SET url_count = CASE WHEN id = $1 THEN url_count + $3 ELSE 0 END,
                             byte_size = CASE WHEN id = $1 THEN byte_size + $4 ELSE 0 END,
                             dirty = true, change_seq = change_seq + 1
            WHERE id IN ($1, $2)`,
          [merge.into, merge.from, merge.urlCount, merge.byteSize],
        );
      }
      return merges.length;
    });
  }

  /** Runs `read` on one connection in a read-only REPEATABLE READ transaction. */
  async snapshot<T>(shardId: string, read: (snapshot: ShardSnapshot) => Promise<T>): Promise<T> {
    const db = await this.pool.connect();
    const helpers: PoolClient[] = [];
    try {
      await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      let filter: Promise<PublishedFilter> | undefined;
      let span: Promise<IdSpan | null> | undefined;
      // Every read of the shard's rows is bounded by its id span as well as its shard id, so that
      // no plan walks the rest of the site (see readIdSpan).
      const published = async (alias = 'urls') => {
        const { patterns, active } = await (filter ??= readPublishedFilter(db, shardId));
        const bounds = await (span ??= readIdSpan(db, shardId));
        const within = bounds ? ` AND ${alias}.id BETWEEN ${bounds.first} AND ${bounds.last}` : ' AND false';
        return `${within}${active ? publishedCondition(db, { patterns, alias }) : ''}`;
      };
      // `count` connections on this snapshot (this one and helpers), fewer when the pool has none to spare.
      const connect = async (count: number): Promise<PoolClient[]> => {
        if (count < 2 || helpers.length > 0) return [db, ...helpers].slice(0, Math.max(1, count));
        const readers: PoolClient[] = [db];
        const exported = (await db.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0]?.id ?? '';
        if (!/^[\w-]+$/.test(exported)) throw new Error(`unexpected snapshot id ${exported}`);
        while (readers.length < count) {
          const helper = this.spareConnection();
          if (!helper) break;
          const client = await helper;
          helpers.push(client);
          await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
          await client.query(`SET TRANSACTION SNAPSHOT '${exported}'`);
          readers.push(client);
        }
        return readers;
      };
      return await read({
        head: async () => readHead(db, shardId, await published('u')),
        streamFragments: async function* () {
          yield* readShardFragments(db, shardId, await published());
        },
        streamFragmentParts: async (head, parts) => {
          const condition = await published();
          const ranges = splitIds(head, parts, this.splitMinUrls);
          const readers = await connect(ranges.length);
          if (readers.length === 1)
            return [
              (async function* () {
                yield* readShardFragments(db, shardId, condition);
              })(),
            ];
          // Fewer readers than ranges: split again, by the readers there are.
          const used = readers.length === ranges.length ? ranges : splitIds(head, readers.length, this.splitMinUrls);
          // Lazy, as streamFragments is: a COPY starts only when its part is read.
          return used.map((range, index) =>
            (async function* () {
              yield* readShardFragments(readers[index] as PoolClient, shardId, `${condition}${range}`);
            })(),
          );
        },
        slicedHead: async (bounds, sliceUrls) => {
          const condition = await published('u');
          const idSpan = await (span ??= readIdSpan(db, shardId));
          const cut = bounds ?? (idSpan ? sliceBounds(idSpan.first, idSpan.last, sliceUrls) : []);
          const read = await readSlicedHead(db, shardId, condition, cut);
          return read && { ...read, bounds: cut };
        },
        streamSlices: async (head, bounds, indexes) => {
          const condition = await published();
          // Contiguous runs of slices per connection: each reads its ranges one COPY after another.
          const readers = await connect(indexes.length > 1 && head.urls >= this.splitMinUrls ? 2 : 1);
          const perReader = Math.ceil(indexes.length / readers.length);
          // A connection runs one query at a time: its slices form one lane, read one after another.
          return readers
            .map((reader, slot) =>
              indexes.slice(slot * perReader, (slot + 1) * perReader).map((index) =>
                // Lazy, as streamFragments is: the COPY starts only when the slice is read.
                (async function* () {
                  yield* readShardFragments(reader, shardId, `${condition}${sliceCondition(bounds, index)}`);
                })(),
              ),
            )
            .filter((lane) => lane.length > 0);
        },
        fragmentRows: async () => {
          const condition = await published();
          return (
            await db.query<FragmentRow>(
              `SELECT fragment, fragment_size, ns_mask, lastmod, lastmod_at${condition ? ', alternates' : ''}
                 FROM urls WHERE shard_id = $1 AND deleted_at IS NULL${condition} ORDER BY id`,
              [shardId],
            )
          ).rows;
        },
        excludedLinks: async () => {
          const { patterns, active } = await (filter ??= readPublishedFilter(db, shardId));
          if (!active) return null;
          const bounds = await (span ??= readIdSpan(db, shardId));
          if (!bounds) return new Set();
          const { rows } = await db.query<{ href: string }>(
            `SELECT DISTINCT a->>'href' AS href
               FROM urls u CROSS JOIN LATERAL json_array_elements(u.alternates) a
               JOIN urls x ON x.site_id = u.site_id AND x.loc_hash = ${sqlLocHash("a->>'href'")}
                          AND x.deleted_at IS NULL
              WHERE u.shard_id = $1 AND u.id BETWEEN $3 AND $4 AND u.deleted_at IS NULL AND u.alternates IS NOT NULL
                AND (x.excluded OR x.loc ~ ANY($2::text[]))`,
            [shardId, patterns, bounds.first, bounds.last],
          );
          return new Set(rows.map((row) => row.href));
        },
      });
    } finally {
      for (const client of [...helpers, db]) client.release(await closingError(client.query('COMMIT')));
    }
  }

  /** A connection the pool can hand out at once, or null: nobody waits and one is idle or can be opened. */
  private spareConnection(): Promise<PoolClient> | null {
    const max = (this.pool as Pool & { options: { max?: number } }).options.max ?? 10;
    const spare = this.pool.waitingCount === 0 && (this.pool.idleCount > 0 || this.pool.totalCount < max);
    return spare ? this.pool.connect() : null;
  }
}

/**
 * `AND urls.id …` conditions cutting the shard's id range into `parts` consecutive ranges of
 * equal width (ids are dense in a shard filled in order; an uneven split is only slower). One
 * empty condition when it is not worth splitting.
 */
function splitIds(head: ShardHead, parts: number, minUrls: number): string[] {
  if (parts < 2 || head.urls < minUrls || head.first_id === null || head.last_id === null) return [''];
  const first = BigInt(head.first_id);
  const span = BigInt(head.last_id) - first + 1n;
  const count = BigInt(parts);
  const bounds = Array.from({ length: parts - 1 }, (_, k) => first + (span * BigInt(k + 1)) / count);
  return Array.from({ length: parts }, (_, k) => {
    const from = k === 0 ? '' : ` AND urls.id >= ${bounds[k - 1]}`;
    const to = k === parts - 1 ? '' : ` AND urls.id < ${bounds[k]}`;
    return `${from}${to}`;
  });
}

/** The lowest and highest id of a shard's rows, deleted or not. */
export interface IdSpan {
  first: string;
  last: string;
}

/**
 * A shard's id span, from the two ends of `urls_shard_id_id_idx`. With only `shard_id = $1`, the
 * planner may stream a shard in id order through `urls_pkey` with shard_id as a filter, or scan
 * the table and sort, whenever the statistics say the shard is a large part of the table (a site
 * of few shards, or statistics taken when it had few): every shard's read then walks the whole
 * site, and a full build costs shards × site rows. The row comparisons here order by
 * (shard_id, id), which only that index yields without reading the table, and the span then bounds
 * every read of the shard, by whichever index the planner picks. Null when the shard has no rows.
 */
export async function readIdSpan(db: Pool | PoolClient, shardId: string): Promise<IdSpan | null> {
  const { rows } = await db.query<{ first: string | null; last: string | null }>(
    `SELECT (SELECT id FROM (SELECT shard_id, id FROM urls WHERE (shard_id, id) >= ($1::bigint, 0::bigint)
                              ORDER BY shard_id, id LIMIT 1) f WHERE shard_id = $1)::text AS first,
            (SELECT id FROM (SELECT shard_id, id FROM urls WHERE (shard_id, id) <= ($1::bigint, 9223372036854775807::bigint)
                              ORDER BY shard_id DESC, id DESC LIMIT 1) l WHERE shard_id = $1)::text AS last`,
    [shardId],
  );
  const { first, last } = rows[0] ?? { first: null, last: null };
  if (first === null || last === null) return null;
  // They go into COPY's text as literals.
  if (!/^\d+$/.test(first) || !/^\d+$/.test(last)) throw new Error(`unexpected id span ${first}-${last}`);
  return { first, last };
}

async function readPublishedFilter(db: PoolClient, shardId: string): Promise<PublishedFilter> {
  const { rows } = await db.query<{ exclusion_rules: unknown; flagged: boolean }>(
    `SELECT st.exclusion_rules,
            EXISTS (SELECT 1 FROM urls x WHERE x.site_id = s.site_id AND x.excluded AND x.deleted_at IS NULL) AS flagged
       FROM shards s JOIN sites st ON st.id = s.site_id WHERE s.id = $1`,
    [shardId],
  );
  const row = rows[0];
  if (!row) return { patterns: [], active: false };
  const patterns = exclusionPatterns(validateExclusionRules(row.exclusion_rules));
  return { patterns, active: patterns.length > 0 || row.flagged };
}

/** `AND …` keeping the rows of URLs the site publishes; the patterns go in as escaped literals (COPY takes no parameters). */
function publishedCondition(
  db: PoolClient,
  { patterns, alias }: { patterns: readonly string[]; alias: string },
): string {
  const literals = patterns.map((pattern) => db.escapeLiteral(pattern)).join(', ');
  const rules = patterns.length > 0 ? ` AND NOT (${alias}.loc ~ ANY(ARRAY[${literals}]::text[]))` : '';
  return ` AND NOT ${alias}.excluded${rules}`;
}

/** `published`: the condition that keeps a URL in the files, on the alias `u`. */
async function readHead(db: PoolClient, shardId: string, published: string): Promise<ShardHead | null> {
  // One aggregate pass over the shard's rows, the newest included (an ordered array_agg): half
  // the CPU of materialising the rows for a second look (measured 76 → 50 ms per 50,000 URLs).
  const { rows } = await db.query<ShardHead>(
    `SELECT s.section, s.ordinal, s.change_seq, t.urls, t.bytes, t.mask, t.newest,
            (SELECT xsl_stylesheet FROM sites WHERE id = s.site_id) AS xsl, t.first_id, t.last_id
       FROM shards s CROSS JOIN (
         SELECT count(*)::int AS urls, coalesce(sum(u.fragment_size), 0) AS bytes, coalesce(bit_or(u.ns_mask), 0) AS mask,
                min(u.id)::text AS first_id, max(u.id)::text AS last_id,
                (array_agg(u.lastmod ORDER BY u.lastmod_at DESC NULLS LAST))[1] AS newest
           FROM urls u WHERE u.shard_id = $1 AND u.deleted_at IS NULL${published}) t
      WHERE s.id = $1`,
    [shardId],
  );
  return rows[0] ?? null;
}

/** `AND …` keeping the rows of slice `index` of a shard cut at `bounds` (validated integers). */
function sliceCondition(bounds: SliceBounds, index: number): string {
  const from = index > 0 ? bounds[index - 1] : undefined;
  const to = index < bounds.length ? bounds[index] : undefined;
  for (const bound of [from, to])
    if (bound !== undefined && !/^\d+$/.test(bound)) throw new Error(`invalid slice bound ${bound}`);
  return `${from === undefined ? '' : ` AND urls.id >= ${from}`}${to === undefined ? '' : ` AND urls.id < ${to}`}`;
}

/**
 * readHead, with each slice's state from the same pass. A slice's stamp sums its rows' `xmin` (the
 * transaction that wrote each row version: every insert, update, soft delete or move to another
 * shard makes a new one, with a newer xmin) twice, once weighted by id, with its count, bytes and
 * namespaces: any write to a row of the slice moves it. A write that changes nothing a file shows
 * (a new row version all the same) only costs that slice a re-render.
 *
 * One grouped pass over the shard's rows, the head's totals summed from the slices' (a
 * materialised copy of the rows read three times cost half as much again). The newest lastmod is
 * then looked up in the one slice holding the latest lastmod_at: ties go to the lowest id.
 */
async function readSlicedHead(
  db: PoolClient,
  shardId: string,
  published: string,
  bounds: SliceBounds,
): Promise<{ head: ShardHead; slices: SliceState[] } | null> {
  const { rows } = await db.query<ShardHead & { slices: { slice: number; urls: number; stamp: string }[] | null }>(
    `WITH g AS (
       SELECT width_bucket(u.id, $2::bigint[]) AS slice, count(*)::int AS urls, sum(u.fragment_size) AS bytes,
              bit_or(u.ns_mask) AS mask, min(u.id) AS first_id, max(u.id) AS last_id, max(u.lastmod_at) AS newest_at,
              concat_ws(':', sum(u.fragment_size), bit_or(u.ns_mask), sum(u.xmin::text::bigint),
                        sum(u.xmin::text::bigint * (u.id % 65521))) AS stamp
         FROM urls u WHERE u.shard_id = $1 AND u.deleted_at IS NULL${published} GROUP BY 1),
     newest AS (SELECT first_id, last_id, newest_at FROM g WHERE newest_at IS NOT NULL ORDER BY newest_at DESC LIMIT 1)
     SELECT s.section, s.ordinal, s.change_seq, t.urls, t.bytes, t.mask,
            (SELECT u.lastmod FROM newest n JOIN urls u ON u.shard_id = $1 AND u.id BETWEEN n.first_id AND n.last_id
                                                       AND u.lastmod_at = n.newest_at
              WHERE u.deleted_at IS NULL${published} ORDER BY u.id LIMIT 1) AS newest,
            (SELECT xsl_stylesheet FROM sites WHERE id = s.site_id) AS xsl, t.first_id, t.last_id,
            (SELECT json_agg(json_build_object('slice', slice, 'urls', urls, 'stamp', stamp)) FROM g) AS slices
       FROM shards s CROSS JOIN (
         SELECT coalesce(sum(urls), 0)::int AS urls, coalesce(sum(bytes), 0) AS bytes, coalesce(bit_or(mask), 0) AS mask,
                min(first_id)::text AS first_id, max(last_id)::text AS last_id FROM g) t
      WHERE s.id = $1`,
    [shardId, bounds],
  );
  const row = rows[0];
  if (!row) return null;
  const { slices: found, ...head } = row;
  const slices: SliceState[] = Array.from({ length: bounds.length + 1 }, () => ({ urls: 0, stamp: '' }));
  for (const slice of found ?? []) slices[slice.slice] = { urls: slice.urls, stamp: slice.stamp };
  return { head, slices };
}
