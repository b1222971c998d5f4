// Deletions shrink shards; left alone, a site ends up with many near-empty files. Compaction
// merges neighbouring shards of a section while the result fits one file and one of the two is
// under half full. The emptied shard stays as a row with no URLs: its next render publishes no
// file, so the manifest drops it. Both shards become dirty; everything else keeps its file.
import type { Pool } from 'pg';
import { lockSiteUrls } from '@sitemaps/data';
import { DEFAULT_SHARD_LIMITS, limitsForSection, type ShardLimits } from '@sitemaps/domain';

interface ShardSize {
  id: string;
  section: string;
  ordinal: number;
  url_count: number;
  byte_size: number;
}

export class ShardCompactor {
  constructor(
    private readonly pool: Pool,
    private readonly limits: ShardLimits = DEFAULT_SHARD_LIMITS,
  ) {}

  /** Returns how many shards were emptied into a neighbour. */
  async compact(siteId: string): Promise<number> {
    const db = await this.pool.connect();
    try {
      await db.query('BEGIN');
      // The same lock as ingest: shard planning must not append to a shard being merged away.
      await lockSiteUrls(db, siteId);
      const { rows } = await db.query<ShardSize>(
        'SELECT id, section, ordinal, url_count, byte_size FROM shards WHERE site_id = $1 AND url_count > 0 ORDER BY section, ordinal',
        [siteId],
      );
      let merged = 0;
      let target: ShardSize | undefined;
      for (const shard of rows) {
        const limits = limitsForSection(shard.section, this.limits);
        const half = limits.maxUrls / 2;
        const fits =
          target &&
          target.section === shard.section &&
          target.url_count + shard.url_count <= limits.maxUrls &&
          target.byte_size + shard.byte_size <= limits.maxBytes;
        if (target && fits && (target.url_count < half || shard.url_count < half)) {
          await db.query('UPDATE urls SET shard_id = $1 WHERE shard_id = $2', [target.id, shard.id]);
          await db.query(
            `UPDATE shards SET url_count = CASE WHEN id = $1 THEN url_count + $3 ELSE 0 END,
                               byte_size = CASE WHEN id = $1 THEN byte_size + $4 ELSE 0 END,
                               dirty = true, change_seq = change_seq + 1
              WHERE id IN ($1, $2)`,
            [target.id, shard.id, shard.url_count, shard.byte_size],
          );
          target = {
            ...target,
            url_count: target.url_count + shard.url_count,
            byte_size: target.byte_size + shard.byte_size,
          };
          merged += 1;
        } else {
          target = shard;
        }
      }
      await db.query('COMMIT');
      return merged;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      db.release();
    }
  }
}
