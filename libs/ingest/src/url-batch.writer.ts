// One batch of prepared entries into the database, inside the caller's transaction and under
// the caller's per-site lock, in three named units: cluster resolution (hreflang clusters and
// pending alternates), URL persistence (which URLs changed by content hash, their fragments
// rendered for those only, written with COPY) and shard placement (the shards they go to and
// every shard they touch marked dirty, split when an update grew one past its limits).
//
// A URL is one row, its hreflang links included (`urls.alternates`): clusters are worked out in
// memory (ClusterChanges) from the batch and the stored links of the pages it names, found by
// loc hash like any URL. Links for pages not stored yet wait in `pending_alternates`. Every query
// is in a repository (libs/data): a batch costs a handful of round trips whatever its size.
import type { PoolClient } from 'pg';
import {
  PendingAlternateRepository,
  QuotaService,
  ShardPlacementRepository,
  UrlExclusionRepository,
  UrlWriteRepository,
  type ExistingUrl,
  type FieldArena,
  type UrlSelection,
} from '@sitemaps/data';
import {
  NO_SHARD_SIZES,
  platformLastmod,
  urlContentHash,
  validateShardSizes,
  type QuotaMode,
  type ShardLimits,
  type ShardSizes,
} from '@sitemaps/domain';
import { ClusterResolver, type DepartedUrl } from './url-batch/cluster-resolution';
import { ShardPlacement } from './url-batch/shard-placement';
import { entryWrite, peerWrite, persistUrls, rowWrite, type Write } from './url-batch/url-persistence';
import type { IngestSite, PreparedEntry } from './url-entry.preparer';

export type { DepartedUrl } from './url-batch/cluster-resolution';
export { storedUrl } from './url-batch/url-persistence';

export interface WriteOptions {
  departed?: DepartedUrl[];
  /**
   * Entries past the tenant's URL quota: `refuse` the whole write (QUOTA_URLS, the default) or
   * `reject` only them (returned as `overQuota`).
   */
  quota?: QuotaMode;
}

export interface WriteResult {
  /** URLs whose published content changed: rewritten, or in or out of the files by their `excluded` flag. */
  changed: number;
  /** URLs added as new rows. */
  inserted: number;
  /** Entries left out because they would have added a URL past the quota. */
  overQuota: PreparedEntry[];
}

/** Deleted URLs' locs are returned up to this many (a replace import may delete millions). */
const LIST_DELETED_UP_TO = 10_000;

export class UrlBatchWriter {
  private readonly urls = new UrlWriteRepository();
  private readonly exclusions = new UrlExclusionRepository();
  private readonly clusters = new ClusterResolver(this.urls, new PendingAlternateRepository());
  private readonly shards: ShardPlacement;

  constructor(
    limits: ShardLimits,
    private readonly quota: QuotaService = new QuotaService(),
  ) {
    this.shards = new ShardPlacement(limits, new ShardPlacementRepository());
  }

  /**
   * Writes the entries (one per loc) and re-renders the other pages of every cluster they
   * change, or that `departed` URLs (deleted by the caller) leave. Entries that would add a live
   * URL past the tenant's quota refuse the write, or are left out and returned (`opts.quota`).
   * Returns how many URLs changed.
   */
  async write(
    db: PoolClient,
    site: IngestSite,
    entries: PreparedEntry[],
    options: WriteOptions & { now: Date },
  ): Promise<WriteResult> {
    const { now } = options;
    const existing = await this.urls.findExisting(
      db,
      site.id,
      entries.map((entry) => entry.hash),
    );
    const {
      accepted,
      over: overQuota,
      added,
    } = await this.quota.admitUrls(db, {
      siteId: site.id,
      entries,
      adds: (entry) => addsUrl(existing.get(entry.hex)),
      indexOf: (entry) => entry.index,
      mode: options.quota ?? 'refuse',
    });
    const { clusters, peers } = await this.clusters.resolve(db, {
      site,
      entries: accepted,
      existing,
      departed: options.departed ?? [],
    });
    const nowLastmod = platformLastmod(now);
    const writes: Write[] = [];
    for (const entry of accepted) {
      const write = entryWrite({
        entry,
        row: existing.get(entry.hex),
        links: clusters.linksOf(entry.hex),
        now,
        nowLastmod,
      });
      if (write) writes.push(write);
    }
    for (const row of peers) {
      const write = peerWrite({ row, links: clusters.linksOf(row.loc_hash.toString('hex')), now, nowLastmod });
      if (write) writes.push(write);
    }
    if (writes.length === 0) return { changed: await this.applyFlags(db, site.id, accepted), inserted: 0, overQuota };
    const deltas = await this.shards.place(db, site.id, writes, shardSizesOf(site));
    const inserted = await persistUrls(db, this.urls, { siteId: site.id, writes, now });
    await this.quota.countUrls(db, site.id, added);
    await this.shards.applyDeltas(db, deltas);
    await this.shards.splitOversized(db, site.id, [...deltas.keys()]);
    // After the rows are in and placed: a new URL's flag needs its row and its shard.
    const flagged = await this.applyFlags(db, site.id, accepted);
    return { changed: writes.length + flagged, inserted, overQuota };
  }

  /**
   * The row `entry` inserts if its URL turns out new and its hreflang cluster is the one it
   * declares (declaring none: that it has none), rendered and encoded now. A bulk import stages
   * while its previous batch is in Postgres, so that `write` only adds the shard; `write` does
   * the work itself when it turns out otherwise. `now` is the one `write` will get; `arena` must
   * not be cleared before that write has finished.
   */
  /** Sets the entries' `excluded` flags; returns how many URLs went in or out of the published files. */
  private async applyFlags(db: PoolClient, siteId: string, entries: readonly PreparedEntry[]): Promise<number> {
    const flags: { hash: Buffer; excluded: boolean }[] = [];
    for (const entry of entries)
      if (entry.excluded !== undefined) flags.push({ hash: entry.hash, excluded: entry.excluded });
    return flags.length === 0 ? 0 : (await this.exclusions.setFlags(db, siteId, flags)).urls;
  }

  stage(siteId: string, entry: PreparedEntry, now: Date, arena: FieldArena): void {
    const { expected } = entry;
    const contentHash = expected
      ? expected.contentHash
      : urlContentHash(entry.url, entry.section, entry.clientLastmod, undefined);
    const row = rowWrite({
      hash: entry.hash,
      // A new URL: its lastmod is the client's, or unknown (unsentLastmod).
      url: { ...entry.url, lastmod: entry.clientLastmod, alternates: expected?.links },
      linksJson: expected?.linksJson,
      section: entry.section,
      contentHash,
      lastmodGiven: entry.clientLastmod !== undefined,
      row: undefined,
      now,
    });
    entry.staged = {
      fragmentSize: row.fragmentSize,
      fields: this.urls.stage(arena, { siteId, hash: row.hash, values: row, now }),
    };
  }

  /**
   * Soft-deletes the site's live URLs that `selection` names: their shards shrink and become
   * dirty, and their cluster peers drop them. `deleted` lists their locs (up to 10,000).
   */
  async softDelete(
    db: PoolClient,
    site: IngestSite,
    selection: UrlSelection,
    now: Date,
  ): Promise<{ deleted: string[]; count: number; changed: number }> {
    const gone = await this.urls.softDelete(db, { siteId: site.id, selection, now, listUpTo: LIST_DELETED_UP_TO });
    if (gone.count === 0) return { deleted: [], count: 0, changed: 0 };
    await this.quota.countUrls(db, site.id, -gone.count);
    await this.shards.applyDeltas(db, gone.shards);
    // A deleted page must not stay listed as an alternate of its translations.
    const { changed: peersChanged } =
      gone.departed.length > 0 ? await this.write(db, site, [], { now, departed: gone.departed }) : { changed: 0 };
    return { deleted: gone.locs, count: gone.count, changed: gone.count + peersChanged };
  }
}

/** Whether writing an entry adds a live URL: it is new, or revives a deleted one. */
function addsUrl(row: ExistingUrl | undefined): boolean {
  return !row || row.deleted;
}

/** The site's shard sizes, as its row holds them (validated when written). */
function shardSizesOf(site: IngestSite): ShardSizes {
  if (site.shardSize == null && site.sectionShardSizes == null) return NO_SHARD_SIZES;
  return validateShardSizes({ shardSize: site.shardSize, sectionShardSizes: site.sectionShardSizes });
}
