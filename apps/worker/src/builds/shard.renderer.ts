// Renders one shard: its stored fragments in order between header and footer, gzipped, stored
// under a content-addressed key. Idempotent: a retry finds its own result and stops.
import type {
  BuildRepository,
  FragmentRow,
  RenderSlices,
  ShardHead,
  ShardRepository,
  ShardSnapshot,
  StageTimings,
} from '@sitemaps/data';
import {
  limitsForSection,
  shardFilePath,
  SLICE_URLS,
  slicesToRender,
  stylesheetHref,
  type RenderedFile,
} from '@sitemaps/domain';
import type { RenderShardPayload } from '@sitemaps/jobs';
import {
  assembleUrlset,
  gzipFile,
  gzipUrlsetParts,
  gzipUrlsetSlices,
  packFragments,
  spliceUrlsetSlices,
  urlsetFits,
  urlsetOpen,
  urlsetOverheadBytes,
  withoutAlternates,
  xslStylesheetPi,
  type UrlFragment,
} from '@sitemaps/sitemap-xml';
import { blobKey, type BlobStore } from '@sitemaps/storage';

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
  /** How it is cut into slices, when it is (all but the blob key). */
  slices?: Omit<RenderSlices, 'sha256'>;
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
    const snapshot = await this.readAndCompress(payload, timings);
    if (!snapshot) return null; // the shard was removed with its site

    const files: RenderedFile[] = [];
    let slices: RenderSlices | null = null;
    for (const [part, file] of snapshot.files.entries()) {
      const started = performance.now();
      const sha256 = await this.store.put(payload.siteId, file.gzip, file.byteSize);
      timings.storeMs += performance.now() - started;
      if (file.slices) slices = { ...file.slices, sha256 };
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
      slices,
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
    payload: RenderShardPayload,
    timings: StageTimings,
  ): Promise<{ head: ShardHead; files: GzippedFile[] } | null> {
    return this.shards.snapshot(payload.shardId, async (snapshot) => {
      const sliced = await this.readSliced(payload, snapshot, timings);
      if (sliced !== undefined) return sliced;
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
      const meta = { urls: head.urls, bytes, mask: head.mask };
      if (urlsetFits(meta, { maxUrls, stylesheet: href }) && !relink) {
        started = performance.now();
        const { gzip, byteSize } = await gzipUrlsetParts(
          await snapshot.streamFragmentParts(head, READERS_PER_SHARD),
          meta,
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

  /**
   * A shard that fits one file, of a site that excludes nothing, is gzipped as slices of about
   * SLICE_URLS URLs (gzipUrlsetSlices). When its last sliced render's file is still stored, only
   * the slices whose URLs changed since are read and deflated, and the others' bytes are copied
   * from that file (spliceUrlsetSlices): a one-URL change costs one slice, not the shard.
   * Undefined when the shard is not rendered this way (the caller renders it as before).
   */
  private async readSliced(
    payload: RenderShardPayload,
    snapshot: ShardSnapshot,
    timings: StageTimings,
  ): Promise<{ head: ShardHead; files: GzippedFile[] } | null | undefined> {
    let started = performance.now();
    // Links to excluded URLs are cut out of fragments, and exclusions can change without a write
    // to the rows they hide: such a site's shards are rendered whole.
    const [excluded, base] = await Promise.all([
      snapshot.excludedLinks(),
      this.builds.lastSlices(BigInt(payload.shardId)),
    ]);
    if (excluded !== null) return undefined;
    // The previous file is read while the shard's states are (on other connections).
    const [first, stored] = await Promise.all([
      snapshot.slicedHead(base?.bounds ?? null, sliceUrls),
      base ? this.previousFile(payload.siteId, base) : null,
    ]);
    let read = first;
    timings.readMs += performance.now() - started;
    if (!read) return null;
    const { head } = read;
    if (head.urls === 0) return { head, files: [] };
    const { maxUrls } = limitsForSection(head.section);
    const href = head.xsl ? stylesheetHref(shardFilePath(head.section, 1)) : null;
    const bytes = Number(head.bytes);
    const headXml = urlsetOpen(head.mask, href);
    const meta = { urls: head.urls, bytes, mask: head.mask };
    const opts = { maxUrls, stylesheet: href };
    if (!urlsetFits(meta, opts)) return undefined;

    const changed = base ? slicesToRender(base, { head: headXml, slices: read.slices }, sliceUrls) : null;
    const previous = changed ? stored : null;
    let file: {
      gzip: Buffer;
      byteSize: number;
      slices: { offset: number; size: number; crc: number; length: number }[];
    };
    let rendered: number[];
    started = performance.now();
    if (base && changed && previous) {
      rendered = changed;
      const bodies = (await snapshot.streamSlices(head, read.bounds, changed)).flat();
      file = await spliceUrlsetSlices(
        { gzip: previous, slices: base.slices, head: base.head },
        new Map(changed.map((index, k) => [index, bodies[k] as AsyncGenerator<Buffer>])),
        meta,
        opts,
      );
    } else {
      // Cut afresh when the old cut is not worth keeping (see slicesToRender).
      if (base) read = (await snapshot.slicedHead(null, sliceUrls)) ?? read;
      rendered = read.slices.map((_, index) => index);
      file = await gzipUrlsetSlices(await snapshot.streamSlices(head, read.bounds, rendered), meta, opts);
    }
    timings.gzipMs += performance.now() - started;
    return {
      head,
      files: [
        {
          gzip: file.gzip,
          byteSize: file.byteSize,
          urls: head.urls,
          newest: head.newest,
          slices: {
            v: 1,
            gzipSize: file.gzip.length,
            head: headXml,
            bounds: [...read.bounds],
            rendered,
            slices: file.slices.map((layout, index) => ({
              ...layout,
              ...(read.slices[index] ?? { urls: 0, stamp: '' }),
            })),
          },
        },
      ],
    };
  }

  /** The file a sliced render made, if it is still stored and is what its record says. */
  private async previousFile(siteId: string, base: RenderSlices): Promise<Buffer | null> {
    const gzip = await this.store.get(siteId, base.sha256);
    return gzip && gzip.length === base.gzipSize && blobKey(gzip) === base.sha256 ? gzip : null;
  }
}

/** Slices of at most this many URLs: a change re-renders one of them, not the shard. */
const sliceUrls = SLICE_URLS;

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
