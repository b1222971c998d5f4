// Renders one shard: its stored fragments in order between header and footer, gzipped, stored
// under a content-addressed key. Idempotent: a retry finds its own result and stops.
import type { BuildRepository, FragmentRow, ShardHead, ShardRepository, StageTimings } from '@sitemaps/data';
import { limitsForSection, shardFilePath, stylesheetHref, type RenderedFile } from '@sitemaps/domain';
import type { RenderShardPayload } from '@sitemaps/jobs';
import {
  assembleUrlset,
  gzipFile,
  gzipUrlsetParts,
  MAX_BYTES_PER_FILE,
  packFragments,
  urlsetOverheadBytes,
  withoutAlternates,
  xslStylesheetPi,
  type UrlFragment,
} from '@sitemaps/sitemap-xml';
import type { BlobStore } from '@sitemaps/storage';

export type { RenderedFile } from '@sitemaps/domain';
export type { StageTimings } from '@sitemaps/data';

/**
 * A large shard is read as two id ranges on two connections and deflated as two parts of one
 * gzip member (gzipUrlsetParts): its render takes both cores, Postgres's and zlib's work alike,
 * which is what a one-URL change waits for.
 */
const READERS_PER_SHARD = 2;

/** A file's gzip bytes, before they are stored. */
interface GzippedFile {
  gzip: Buffer;
  byteSize: number;
  urls: number;
  newest: string | null;
}

export class ShardRenderer {
  constructor(
    private readonly builds: BuildRepository,
    private readonly shards: ShardRepository,
    private readonly store: BlobStore,
  ) {}

  async render(payload: RenderShardPayload): Promise<StageTimings | null> {
    const shardId = BigInt(payload.shardId);
    if (await this.builds.hasRender(payload.buildId, shardId)) return null;

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
    await this.builds.saveRender({
      buildId: payload.buildId,
      shardId,
      changeSeq: BigInt(snapshot.head.change_seq),
      files,
      urlCount: snapshot.head.urls,
      timings,
    });
    return timings;
  }

  /**
   * Reads the shard's change_seq and fragments in one snapshot, so they agree, and compresses
   * them. A shard within a file's limits streams straight from a binary COPY into gzip (no
   * per-row objects, no uncompressed file in memory); one that outgrew a limit since planning
   * is read row by row and split into parts.
   */
  private readAndCompress(
    shardId: string,
    timings: StageTimings,
  ): Promise<{ head: ShardHead; files: GzippedFile[] } | null> {
    return this.shards.snapshot(shardId, async (snapshot) => {
      let started = performance.now();
      const head = await snapshot.head();
      timings.readMs += performance.now() - started;
      if (!head) return null;
      if (head.urls === 0) return { head, files: [] };

      const { maxUrls } = limitsForSection(head.section);
      const bytes = Number(head.bytes);
      // Every part of a shard sits in the same folder, so the first part's name gives the href.
      const href = head.xsl ? stylesheetHref(shardFilePath(head.section, 1)) : null;
      const stylesheet = href ? xslStylesheetPi(href).length : 0;
      // Links to URLs the site excludes come out of the stored fragments that hold them.
      const dropped = await snapshot.excludedLinks();
      const relink = dropped !== null && dropped.size > 0;
      const fits = head.urls <= maxUrls && bytes + urlsetOverheadBytes(head.mask) + stylesheet <= MAX_BYTES_PER_FILE;
      if (fits && !relink) {
        started = performance.now();
        const { gzip, byteSize } = await gzipUrlsetParts(
          await snapshot.streamFragmentParts(head, READERS_PER_SHARD),
          { urls: head.urls, bytes, mask: head.mask },
          { maxUrls, stylesheet: href },
        );
        timings.gzipMs += performance.now() - started;
        return { head, files: [{ gzip, byteSize, urls: head.urls, newest: head.newest }] };
      }

      started = performance.now();
      const stored = await snapshot.fragmentRows();
      const rows = relink ? stored.map((row) => withoutExcludedLinks(row, dropped)) : stored;
      timings.readMs += performance.now() - started;
      const files: GzippedFile[] = [];
      const overheadBytes = urlsetOverheadBytes() + stylesheet;
      for (const range of packFragments(
        rows.map((row) => row.fragment_size),
        { maxUrls, overheadBytes },
      )) {
        const part = rows.slice(range.start, range.end);
        started = performance.now();
        const xml = assembleUrlset(
          part.map((row): UrlFragment => ({ xml: row.fragment, bytes: row.fragment_size, mask: row.ns_mask })),
          { maxUrls, stylesheet: href },
        );
        timings.renderMs += performance.now() - started;
        started = performance.now();
        files.push({
          gzip: await gzipFile([xml]),
          byteSize: xml.length,
          urls: part.length,
          newest: newestLastmod(part),
        });
        timings.gzipMs += performance.now() - started;
      }
      return { head, files };
    });
  }
}

function withoutExcludedLinks(row: FragmentRow, dropped: ReadonlySet<string>): FragmentRow {
  if (!row.alternates?.some((link) => dropped.has(link.href))) return row;
  const fragment = withoutAlternates(row.fragment, row.alternates, dropped);
  return { ...row, fragment, fragment_size: Buffer.byteLength(fragment) };
}

function newestLastmod(rows: FragmentRow[]): string | null {
  let newest: FragmentRow | undefined;
  for (const row of rows) {
    if (row.lastmod_at && (!newest?.lastmod_at || row.lastmod_at > newest.lastmod_at)) newest = row;
  }
  return newest?.lastmod ?? null;
}
