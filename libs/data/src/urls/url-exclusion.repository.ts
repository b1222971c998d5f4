// What keeps a site's stored URLs out of its published files: its exclusion rules
// (`sites.exclusion_rules`, matched on loc by PostgreSQL's `~` with the patterns libs/domain
// compiles) and the client's per-URL flag (`urls.excluded`). A change to either marks dirty
// exactly the shards whose files change: those holding a URL whose exclusion changed, and those
// holding its hreflang peers (their published links drop or regain it).
import type { Pool } from 'pg';
import { exclusionPatterns, validateExclusionRules, type ExclusionRule } from '@sitemaps/domain';
import { sqlLocHash } from '../copy/pg-copy';
import { inTransaction, lockSiteUrls, type Queryable } from './url.repository';

/** What a change of exclusions did. */
export interface ExclusionChange {
  /** Live URLs that left or re-entered the published files. */
  urls: number;
  /** Shards marked dirty: those URLs' shards and their hreflang peers'. */
  shards: number;
}

/**
 * The shards of the URLs in the CTE `changed` (shard_id, alternates) and of their live hreflang
 * peers (found by loc hash, computed in SQL as `locHash` does), marked dirty.
 */
const DIRTY_CHANGED_AND_PEERS = `
  touched AS (
    SELECT shard_id FROM changed
    UNION
    SELECT p.shard_id FROM changed c CROSS JOIN LATERAL json_array_elements(c.alternates) a
      JOIN urls p ON p.site_id = $1 AND p.loc_hash = ${sqlLocHash("a->>'href'")} AND p.deleted_at IS NULL
     WHERE c.alternates IS NOT NULL),
  dirtied AS (
    UPDATE shards SET dirty = true, change_seq = change_seq + 1
     WHERE id IN (SELECT shard_id FROM touched WHERE shard_id IS NOT NULL) RETURNING id)
  SELECT (SELECT count(*) FROM changed)::int AS urls, (SELECT count(*) FROM dirtied)::int AS shards`;

export class UrlExclusionRepository {
  /** Without a pool, only what runs in the caller's transaction (`setFlags`, `rules` given `db`). */
  constructor(private readonly poolOrNone?: Pool) {}

  private get pool(): Pool {
    if (!this.poolOrNone) throw new Error('UrlExclusionRepository: constructed without a pool');
    return this.poolOrNone;
  }

  /** The site's rules, as stored (validated when written; read back through the same rules). */
  async rules(siteId: string, db: Queryable = this.pool): Promise<ExclusionRule[]> {
    const { rows } = await db.query<{ exclusion_rules: unknown }>('SELECT exclusion_rules FROM sites WHERE id = $1', [
      siteId,
    ]);
    return rows[0] ? validateExclusionRules(rows[0].exclusion_rules) : [];
  }

  /**
   * Replaces the site's rules under its URL lock, and marks dirty the shards whose files change:
   * a rule that matches no live URL (or only URLs excluded anyway) dirties nothing.
   */
  replaceRules(siteId: string, rules: readonly ExclusionRule[]): Promise<ExclusionChange> {
    return inTransaction(this.pool, async (db) => {
      await lockSiteUrls(db, siteId);
      const before = exclusionPatterns(await this.rules(siteId, db));
      const after = exclusionPatterns(rules);
      await db.query('UPDATE sites SET exclusion_rules = $2::jsonb, updated_at = now() WHERE id = $1', [
        siteId,
        JSON.stringify(rules),
      ]);
      const { rows } = await db.query<ExclusionChange>(
        `WITH changed AS (
           SELECT shard_id, alternates FROM urls
            WHERE site_id = $1 AND deleted_at IS NULL AND NOT excluded
              AND (loc ~ ANY($2::text[])) <> (loc ~ ANY($3::text[]))),
         ${DIRTY_CHANGED_AND_PEERS}`,
        [siteId, before, after],
      );
      return rows[0] ?? { urls: 0, shards: 0 };
    });
  }

  /** How many live URLs each rule matches, in the rules' order (a URL two rules match counts for both). */
  async countsPerRule(siteId: string, rules: readonly ExclusionRule[]): Promise<number[]> {
    if (rules.length === 0) return [];
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM urls u WHERE u.site_id = $1 AND u.deleted_at IS NULL AND u.loc ~ p.pattern)::int AS n
         FROM unnest($2::text[]) WITH ORDINALITY AS p(pattern, position) ORDER BY p.position`,
      [siteId, exclusionPatterns(rules)],
    );
    return rows.map((row) => row.n);
  }

  /** Live URLs the client flagged `excluded`. */
  async flaggedCount(siteId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM urls WHERE site_id = $1 AND excluded AND deleted_at IS NULL',
      [siteId],
    );
    return rows[0]?.n ?? 0;
  }

  /** The live URLs among `locs` that the client flagged `excluded`. */
  async flaggedAmong(siteId: string, locs: readonly string[]): Promise<Set<string>> {
    if (locs.length === 0) return new Set();
    const { rows } = await this.pool.query<{ loc: string }>(
      `SELECT loc FROM urls
        WHERE site_id = $1 AND excluded AND deleted_at IS NULL
          AND loc_hash = ANY(SELECT ${sqlLocHash('l')} FROM unnest($2::text[]) AS l)`,
      [siteId, [...new Set(locs)]],
    );
    return new Set(rows.map((row) => row.loc));
  }

  /**
   * Sets the client's flag on the stored URLs among `flags` (by loc hash), in the caller's
   * transaction, and marks dirty the shards whose files change. URLs whose flag is already so,
   * or that a rule excludes anyway, change nothing published.
   */
  async setFlags(
    db: Queryable,
    siteId: string,
    flags: readonly { hash: Buffer; excluded: boolean }[],
  ): Promise<ExclusionChange> {
    if (flags.length === 0) return { urls: 0, shards: 0 };
    const patterns = exclusionPatterns(await this.rules(siteId, db));
    const { rows } = await db.query<ExclusionChange>(
      `WITH flags AS (SELECT * FROM unnest($2::bytea[], $3::bool[]) AS f(loc_hash, excluded)),
       flipped AS (
         UPDATE urls u SET excluded = f.excluded FROM flags f
          WHERE u.site_id = $1 AND u.loc_hash = f.loc_hash AND u.excluded <> f.excluded
          RETURNING u.shard_id, u.alternates, u.loc, u.deleted_at),
       changed AS (SELECT shard_id, alternates FROM flipped WHERE deleted_at IS NULL AND NOT (loc ~ ANY($4::text[]))),
       ${DIRTY_CHANGED_AND_PEERS}`,
      [siteId, flags.map((flag) => flag.hash), flags.map((flag) => flag.excluded), patterns],
    );
    return rows[0] ?? { urls: 0, shards: 0 };
  }
}
