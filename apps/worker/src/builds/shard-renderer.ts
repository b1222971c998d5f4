// Renders one shard: its stored fragments in order, joined with header and footer, gzipped in
// one call, stored under a content-addressed key. Idempotent: a retry finds its own result.
import type { Pool } from 'pg';
import type { PrismaClient } from '@sitemaps/data';
import { shardFilePath } from '@sitemaps/domain';
import type { RenderShardPayload } from '@sitemaps/jobs';
import { assembleUrlset, gzipFile, packFragments, type UrlFragment } from '@sitemaps/sitemap-xml';
import type { BlobStore, ManifestFile } from '@sitemaps/storage';

export interface RenderedFile extends ManifestFile {
  path: string;
}

export interface StageTimings {
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
    let started = performance.now();
    const snapshot = await this.readShard(payload.shardId);
    timings.readMs = performance.now() - started;
    if (!snapshot) return null; // the shard was removed with its site

    const files: RenderedFile[] = [];
    const ranges = snapshot.rows.length ? packFragments(snapshot.rows.map((row) => row.fragment_size)) : [];
    for (const [part, range] of ranges.entries()) {
      const rows = snapshot.rows.slice(range.start, range.end);
      started = performance.now();
      const xml = assembleUrlset(rows.map((row): UrlFragment => ({ xml: row.fragment, bytes: row.fragment_size, mask: row.ns_mask })));
      timings.renderMs += performance.now() - started;
      started = performance.now();
      const gzip = await gzipFile([xml]);
      timings.gzipMs += performance.now() - started;
      started = performance.now();
      const sha256 = await this.store.put(payload.siteId, gzip, xml.length);
      timings.storeMs += performance.now() - started;
      files.push({
        path: shardFilePath(snapshot.section, snapshot.ordinal, part + 1),
        sha256,
        kind: 'shard',
        byteSize: xml.length,
        gzipSize: gzip.length,
        urlCount: rows.length,
        lastmod: newestLastmod(rows),
      });
    }
    await this.prisma.shardRender.upsert({
      where: { buildId_shardId: { buildId: payload.buildId, shardId } },
      create: { buildId: payload.buildId, shardId, changeSeq: snapshot.changeSeq, files: files as object[], urlCount: snapshot.rows.length, timings: { ...timings } },
      update: {},
    });
    return timings;
  }

  /** The shard's change_seq and its live fragments, read in one snapshot so they agree. */
  private async readShard(shardId: string) {
    const db = await this.pool.connect();
    try {
      await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const shard = await db.query<{ section: string; ordinal: number; change_seq: string }>(
        'SELECT section, ordinal, change_seq FROM shards WHERE id = $1',
        [shardId],
      );
      const head = shard.rows[0];
      if (!head) return null;
      const { rows } = await db.query<FragmentRow>(
        `SELECT fragment, fragment_size, ns_mask, lastmod, lastmod_at FROM urls
          WHERE shard_id = $1 AND deleted_at IS NULL ORDER BY id`,
        [shardId],
      );
      return { section: head.section, ordinal: head.ordinal, changeSeq: BigInt(head.change_seq), rows };
    } finally {
      await db.query('COMMIT').catch(() => undefined);
      db.release();
    }
  }
}

function newestLastmod(rows: FragmentRow[]): string | null {
  let newest: FragmentRow | undefined;
  for (const row of rows) {
    if (row.lastmod_at && (!newest?.lastmod_at || row.lastmod_at > newest.lastmod_at)) newest = row;
  }
  return newest?.lastmod ?? null;
}

