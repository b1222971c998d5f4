// Renders one shard: its stored fragments in order between header and footer, gzipped, stored
// under a content-addressed key. Idempotent: a retry finds its own result and stops.
import type { Pool, PoolClient } from 'pg';
import type { PrismaClient } from '@sitemaps/data';
import { limitsForSection, shardFilePath } from '@sitemaps/domain';
import type { RenderShardPayload } from '@sitemaps/jobs';
import {
  assembleUrlset,
  gzipFile,
  gzipUrlsetStream,
  MAX_BYTES_PER_FILE,
  packFragments,
  urlsetOverheadBytes,
  type UrlFragment,
} from '@sitemaps/sitemap-xml';
import type { BlobStore, ManifestFile } from '@sitemaps/storage';
import { readShardFragments } from './copy-fragments.reader';

export interface RenderedFile extends ManifestFile {
  path: string;
}

export interface StageTimings {
  /** Reading rows; on the streaming path this overlaps with gzip and is counted there. */
  readMs: number;
  renderMs: number;
  gzipMs: number;
  storeMs: number;
}

interface FragmentRow {
  fragment: string;
  fragment_size: number;
  ns_mask: number;
  lastmod: string | null;
  lastmod_at: Date | null;
}

interface ShardHead {
  section: string;
  ordinal: number;
  change_seq: string;
  urls: number;
  bytes: string;
  mask: number;
  newest: string | null;
}

/** A file's gzip bytes, before they are stored. */
interface GzippedFile {
  gzip: Buffer;
  byteSize: number;
  urls: number;
  newest: string | null;
}

export class ShardRenderer {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: Pool,
    private readonly store: BlobStore,
  ) {}

  async render(payload: RenderShardPayload): Promise<StageTimings | null> {
    const shardId = BigInt(payload.shardId);
    const done = await this.prisma.shardRender.findUnique({ where: { buildId_shardId: { buildId: payload.buildId, shardId } } });
    if (done) return null;

    const timings: StageTimings = { readMs: 0, renderMs: 0, gzipMs: 0, storeMs: 0 };
    const snapshot = await this.readAndCompress(payload.shardId, timings);
    if (!snapshot) return null; // the shard was removed with its site

    const files: RenderedFile[] = [];
    for (const [part, file] of snapshot.files.entries()) {
      const started = performance.now();
      const sha256 = await this.store.put(payload.siteId, file.gzip, file.byteSize);
      timings.storeMs += performance.now() - started;
      files.push({
        path: shardFilePath(snapshot.head.section, snapshot.head.ordinal, part + 1),
        sha256,
        kind: 'shard',
        byteSize: file.byteSize,
        gzipSize: file.gzip.length,
        urlCount: file.urls,
        lastmod: file.newest,
      });
    }
    await this.prisma.shardRender.upsert({
      where: { buildId_shardId: { buildId: payload.buildId, shardId } },
      create: { buildId: payload.buildId, shardId, changeSeq: BigInt(snapshot.head.change_seq), files: files as object[], urlCount: snapshot.head.urls, timings: { ...timings } },
      update: {},
    });
    return timings;
  }

  /**
   * Reads the shard's change_seq and fragments in one snapshot, so they agree, and compresses
   * them. A shard within a file's limits streams straight from a binary COPY into gzip (no
   * per-row objects, no uncompressed file in memory); one that outgrew a limit since planning
   * is read row by row and split into parts.
   */
  private async readAndCompress(shardId: string, timings: StageTimings): Promise<{ head: ShardHead; files: GzippedFile[] } | null> {
    const db = await this.pool.connect();
    try {
      await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      let started = performance.now();
      const head = await this.readHead(db, shardId);
      timings.readMs += performance.now() - started;
      if (!head) return null;
      if (head.urls === 0) return { head, files: [] };

      const { maxUrls } = limitsForSection(head.section);
      const bytes = Number(head.bytes);
      if (head.urls <= maxUrls && bytes + urlsetOverheadBytes(head.mask) <= MAX_BYTES_PER_FILE) {
        started = performance.now();
        const { gzip, byteSize } = await gzipUrlsetStream(readShardFragments(db, shardId), { urls: head.urls, bytes, mask: head.mask }, { maxUrls });
        timings.gzipMs += performance.now() - started;
        return { head, files: [{ gzip, byteSize, urls: head.urls, newest: head.newest }] };
      }

      started = performance.now();
      const { rows } = await db.query<FragmentRow>(
        `SELECT fragment, fragment_size, ns_mask, lastmod, lastmod_at FROM urls WHERE shard_id = $1 AND deleted_at IS NULL ORDER BY id`,
        [shardId],
      );
      timings.readMs += performance.now() - started;
      const files: GzippedFile[] = [];
      for (const range of packFragments(rows.map((row) => row.fragment_size), { maxUrls })) {
        const part = rows.slice(range.start, range.end);
        started = performance.now();
        const xml = assembleUrlset(part.map((row): UrlFragment => ({ xml: row.fragment, bytes: row.fragment_size, mask: row.ns_mask })), { maxUrls });
        timings.renderMs += performance.now() - started;
        started = performance.now();
        files.push({ gzip: await gzipFile([xml]), byteSize: xml.length, urls: part.length, newest: newestLastmod(part) });
        timings.gzipMs += performance.now() - started;
      }
      return { head, files };
    } finally {
      await db.query('COMMIT').catch(() => undefined);
      db.release();
    }
  }

  private async readHead(db: PoolClient, shardId: string): Promise<ShardHead | null> {
    const { rows } = await db.query<ShardHead>(
      `SELECT s.section, s.ordinal, s.change_seq, count(u.id)::int AS urls, coalesce(sum(u.fragment_size), 0) AS bytes,
              coalesce(bit_or(u.ns_mask), 0) AS mask,
              (SELECT lastmod FROM urls WHERE shard_id = s.id AND deleted_at IS NULL ORDER BY lastmod_at DESC NULLS LAST LIMIT 1) AS newest
         FROM shards s LEFT JOIN urls u ON u.shard_id = s.id AND u.deleted_at IS NULL
        WHERE s.id = $1 GROUP BY s.id`,
      [shardId],
    );
    return rows[0] ?? null;
  }
}

function newestLastmod(rows: FragmentRow[]): string | null {
  let newest: FragmentRow | undefined;
  for (const row of rows) {
    if (row.lastmod_at && (!newest?.lastmod_at || row.lastmod_at > newest.lastmod_at)) newest = row;
  }
  return newest?.lastmod ?? null;
}
