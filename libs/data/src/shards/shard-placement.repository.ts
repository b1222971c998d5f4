// The shards side of a URL write (libs/ingest's shard placement), in the write's transaction and
// under the site's URL lock: the last shard of each section, the shards a plan creates, their
// counters, and splitting a shard an update grew past its limits.
import type { ShardFill, ShardLimits } from '@sitemaps/domain';
import type { Queryable } from '../urls/url.repository';

/** What a write changes in a shard: URLs and fragment bytes, either sign. */
export interface ShardDelta {
  count: number;
  bytes: number;
}

export class ShardPlacementRepository {
  /** The last shard (highest ordinal) of each of the site's `sections` that has one. */
  async lastOfSections(db: Queryable, siteId: string, sections: readonly string[]): Promise<ShardFill[]> {
    const { rows } = await db.query<{
      id: string;
      section: string;
      ordinal: number;
      url_count: number;
      byte_size: number;
    }>(
      `SELECT DISTINCT ON (section) id, section, ordinal, url_count, byte_size FROM shards
        WHERE site_id = $1 AND section = ANY($2::text[]) ORDER BY section, ordinal DESC`,
      [siteId, sections],
    );
    return rows.map((row) => ({
      id: BigInt(row.id),
      section: row.section,
      ordinal: row.ordinal,
      urlCount: row.url_count,
      byteSize: row.byte_size,
    }));
  }

  /** Creates empty dirty shards; returns their ids by `section/ordinal`. */
  async create(
    db: Queryable,
    siteId: string,
    shards: readonly { section: string; ordinal: number }[],
  ): Promise<Map<string, bigint>> {
    const { rows } = await db.query<{ id: string; section: string; ordinal: number }>(
      `INSERT INTO shards (site_id, section, ordinal, url_count, byte_size, dirty)
       SELECT $1, * , 0, 0, true FROM unnest($2::text[], $3::int[]) RETURNING id, section, ordinal`,
      [siteId, shards.map((shard) => shard.section), shards.map((shard) => shard.ordinal)],
    );
    return new Map(rows.map((row) => [`${row.section}/${row.ordinal}`, BigInt(row.id)]));
  }

  /** Counts, sizes, and the dirty mark: a bumped change_seq tells a running build it is stale. */
  async applyDeltas(db: Queryable, deltas: ReadonlyMap<string, ShardDelta>): Promise<void> {
    if (deltas.size === 0) return;
    const entries = [...deltas.entries()];
    await db.query(
      `UPDATE shards s SET url_count = s.url_count + d.c, byte_size = s.byte_size + d.b, dirty = true, change_seq = s.change_seq + 1
         FROM unnest($1::bigint[], $2::int[], $3::int[]) AS d(id, c, b) WHERE s.id = d.id`,
      [entries.map(([id]) => id), entries.map(([, d]) => d.count), entries.map(([, d]) => d.bytes)],
    );
  }

  /** Those of `shardIds` past `limits`, by their counters. */
  async oversized(
    db: Queryable,
    shardIds: readonly string[],
    limits: ShardLimits,
  ): Promise<{ id: string; section: string }[]> {
    const { rows } = await db.query<{ id: string; section: string }>(
      `SELECT id, section FROM shards WHERE id = ANY($1::bigint[]) AND (byte_size > $2 OR url_count > $3)`,
      [shardIds, limits.maxBytes, limits.maxUrls],
    );
    return rows;
  }

  /**
   * Moves the shard's tail past `limits` (in id order) to a new last shard of its section and
   * recounts both, dirty. Returns the new shard's id, or null when nothing is past the limits.
   */
  async splitTail(
    db: Queryable,
    shard: { siteId: string; id: string; section: string },
    limits: ShardLimits,
  ): Promise<string | null> {
    const cut = await db.query<{ id: string | null }>(
      `SELECT min(id) AS id FROM (
         SELECT id, sum(fragment_size) OVER (ORDER BY id) AS bytes, row_number() OVER (ORDER BY id) AS n
           FROM urls WHERE shard_id = $1 AND deleted_at IS NULL) AS running
        WHERE bytes > $2 OR n > $3`,
      [shard.id, limits.maxBytes, limits.maxUrls],
    );
    const cutId = cut.rows[0]?.id;
    if (!cutId) return null;
    const created = await db.query<{ id: string }>(
      `INSERT INTO shards (site_id, section, ordinal, dirty)
       SELECT $1, $2, coalesce(max(ordinal), 0) + 1, true FROM shards WHERE site_id = $1 AND section = $2 RETURNING id`,
      [shard.siteId, shard.section],
    );
    const target = created.rows[0]?.id as string;
    await db.query(`UPDATE urls SET shard_id = $2 WHERE shard_id = $1 AND id >= $3`, [shard.id, target, cutId]);
    await db.query(
      `UPDATE shards s SET url_count = t.n, byte_size = t.bytes, dirty = true, change_seq = s.change_seq + 1
         FROM (SELECT sh.id, count(u.id)::int AS n, coalesce(sum(u.fragment_size), 0)::int AS bytes
                 FROM shards sh LEFT JOIN urls u ON u.shard_id = sh.id AND u.deleted_at IS NULL
                WHERE sh.id = ANY($1::bigint[]) GROUP BY sh.id) AS t
        WHERE s.id = t.id`,
      [[shard.id, target]],
    );
    return target;
  }
}
