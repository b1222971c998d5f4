// Renders one shard: its stored fragments in order, joined with header and footer, gzipped in
// one call, stored under a content-addressed key. Idempotent: a retry finds its own result.
import type { Pool } from 'pg';
import type { PrismaClient } from '@sitemaps/data';
import { MAX_NEWS_URLS_PER_FILE, NEWS_SECTION, shardFilePath } from '@sitemaps/domain';
import type { RenderShardPayload } from '@sitemaps/jobs';
import {
  assembleUrlset,
  assembleUrlsetBody,
  gzipFile,
  MAX_BYTES_PER_FILE,
  MAX_URLS_PER_FILE,
  packFragments,
  urlsetOverheadBytes,
  type UrlFragment,
  type UrlsetBody,
} from '@sitemaps/sitemap-xml';
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
    for (const [part, file] of snapshot.files.entries()) {
      started = performance.now();
      const xml = 'body' in file ? assembleUrlsetBody(file.body) : assembleUrlset(file.fragments);
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
        urlCount: file.urls,
        lastmod: file.newest,
      });
    }
    await this.prisma.shardRender.upsert({
      where: { buildId_shardId: { buildId: payload.buildId, shardId } },
      create: { buildId: payload.buildId, shardId, changeSeq: snapshot.changeSeq, files: files as object[], urlCount: snapshot.urls, timings: { ...timings } },
      update: {},
    });
    return timings;
  }

  /**
   * The shard's change_seq and its live fragments, read in one snapshot so they agree. The
   * database joins the fragments into one value (no per-row objects, no per-row parsing); a
   * shard that outgrew a file's limits since planning is read row by row and split instead.
   */
  private async readShard(shardId: string): Promise<ShardSnapshot | null> {
    const db = await this.pool.connect();
    try {
      await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const shard = await db.query<{ section: string; ordinal: number; change_seq: string; urls: number; bytes: string; mask: number }>(
        `SELECT s.section, s.ordinal, s.change_seq, count(u.id)::int AS urls, coalesce(sum(u.fragment_size), 0) AS bytes,
                coalesce(bit_or(u.ns_mask), 0) AS mask
           FROM shards s LEFT JOIN urls u ON u.shard_id = s.id AND u.deleted_at IS NULL
          WHERE s.id = $1 GROUP BY s.id`,
        [shardId],
      );
      const head = shard.rows[0];
      if (!head) return null;
      const base = { section: head.section, ordinal: head.ordinal, changeSeq: BigInt(head.change_seq), urls: head.urls };
      if (head.urls === 0) return { ...base, files: [] };
      const maxUrls = head.section === NEWS_SECTION ? MAX_NEWS_URLS_PER_FILE : MAX_URLS_PER_FILE;
      if (head.urls <= maxUrls && Number(head.bytes) + urlsetOverheadBytes(head.mask) <= MAX_BYTES_PER_FILE) {
        const { rows } = await db.query<{ body: string; newest: string | null }>(
          `SELECT string_agg(fragment, '' ORDER BY id) AS body,
                  (SELECT lastmod FROM urls WHERE shard_id = $1 AND deleted_at IS NULL ORDER BY lastmod_at DESC NULLS LAST LIMIT 1) AS newest
             FROM urls WHERE shard_id = $1 AND deleted_at IS NULL`,
          [shardId],
        );
        const row = rows[0] as { body: string; newest: string | null };
        return { ...base, files: [{ body: { xml: row.body, urls: head.urls, bytes: Number(head.bytes), mask: head.mask }, urls: head.urls, newest: row.newest }] };
      }
      const { rows } = await db.query<FragmentRow>(
        `SELECT fragment, fragment_size, ns_mask, lastmod, lastmod_at FROM urls
          WHERE shard_id = $1 AND deleted_at IS NULL ORDER BY id`,
        [shardId],
      );
      const files = packFragments(rows.map((row) => row.fragment_size), { maxUrls }).map((range) => {
        const part = rows.slice(range.start, range.end);
        return { fragments: part.map((row): UrlFragment => ({ xml: row.fragment, bytes: row.fragment_size, mask: row.ns_mask })), urls: part.length, newest: newestLastmod(part) };
      });
      return { ...base, files };
    } finally {
      await db.query('COMMIT').catch(() => undefined);
      db.release();
    }
  }
}

type ShardFile = ({ body: UrlsetBody } | { fragments: UrlFragment[] }) & { urls: number; newest: string | null };

interface ShardSnapshot {
  section: string;
  ordinal: number;
  changeSeq: bigint;
  urls: number;
  files: ShardFile[];
}

function newestLastmod(rows: FragmentRow[]): string | null {
  let newest: FragmentRow | undefined;
  for (const row of rows) {
    if (row.lastmod_at && (!newest?.lastmod_at || row.lastmod_at > newest.lastmod_at)) newest = row;
  }
  return newest?.lastmod ?? null;
}

