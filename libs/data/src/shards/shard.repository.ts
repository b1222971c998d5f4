// The shards aggregate: a site's sitemap files' worth of URLs, and the snapshot a render reads.
// URL placement in shards is part of the URL write (libs/ingest's shard placement).
import {
  exclusionPatterns,
  validateExclusionRules,
  validateShardSizes,
  type ShardMerge,
  type ShardSize,
  type ShardSizes,
} from '@sitemaps/domain';
import type { Pool, PoolClient } from 'pg';
import type { PrismaClient, Shard } from '../generated/prisma/client';
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
    try {
      await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      let filter: Promise<PublishedFilter> | undefined;
      const published = async (alias = 'urls') => {
        const { patterns, active } = await (filter ??= readPublishedFilter(db, shardId));
        return active ? publishedCondition(db, { patterns, alias }) : '';
      };
      return await read({
        head: async () => readHead(db, shardId, { urls: await published(), u: await published('u') }),
        streamFragments: async function* () {
          yield* readShardFragments(db, shardId, await published());
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
          const { rows } = await db.query<{ href: string }>(
            `SELECT DISTINCT a->>'href' AS href
               FROM urls u CROSS JOIN LATERAL json_array_elements(u.alternates) a
               JOIN urls x ON x.site_id = u.site_id AND x.loc_hash = sha256(convert_to(a->>'href', 'UTF8'))
                          AND x.deleted_at IS NULL
              WHERE u.shard_id = $1 AND u.deleted_at IS NULL AND u.alternates IS NOT NULL
                AND (x.excluded OR x.loc ~ ANY($2::text[]))`,
            [shardId, patterns],
          );
          return new Set(rows.map((row) => row.href));
        },
      });
    } finally {
      await db.query('COMMIT').catch(() => undefined);
      db.release();
    }
  }
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

/** `published`: the condition that keeps a URL in the files, for each alias of `urls` the query uses. */
async function readHead(
  db: PoolClient,
  shardId: string,
  published: { urls: string; u: string },
): Promise<ShardHead | null> {
  const { rows } = await db.query<ShardHead>(
    `SELECT s.section, s.ordinal, s.change_seq, count(u.id)::int AS urls, coalesce(sum(u.fragment_size), 0) AS bytes,
            coalesce(bit_or(u.ns_mask), 0) AS mask,
            (SELECT lastmod FROM urls WHERE shard_id = s.id AND deleted_at IS NULL${published.urls} ORDER BY lastmod_at DESC NULLS LAST LIMIT 1) AS newest,
            (SELECT xsl_stylesheet FROM sites WHERE id = s.site_id) AS xsl
       FROM shards s LEFT JOIN urls u ON u.shard_id = s.id AND u.deleted_at IS NULL${published.u}
      WHERE s.id = $1 GROUP BY s.id`,
    [shardId],
  );
  return rows[0] ?? null;
}
