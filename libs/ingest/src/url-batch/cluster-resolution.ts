// Cluster resolution: a batch's hreflang clusters, worked out in memory (ClusterChanges) from its
// declarations and the stored links of every page they name, found by loc hash like any URL.
// Pages outside the batch come back as `peers` (live rows, to re-render if their links changed);
// the site's pages not stored yet keep their links in `pending_alternates`, written or dropped
// here, and entries take over (and drop) theirs. The decisions are pure (`declareClusters`,
// `pendingChanges`); ClusterResolver loads and stores through the urls repositories.
import type { PoolClient } from 'pg';
import type { ExistingUrl, PeerUrl, PendingAlternateRepository, UrlWriteRepository } from '@sitemaps/data';
import { ClusterChanges, sameLinks, type Claim, type Links, type Remainder } from '@sitemaps/domain';
import { siteOrigin, type IngestSite, type PreparedEntry } from '../url-entry.preparer';

/** A URL the caller deleted, with the links it had: its cluster's other pages drop it. */
export interface DepartedUrl {
  hash: Buffer;
  href: string;
  links: Links;
}

export interface ClusterBatch {
  site: IngestSite;
  entries: readonly PreparedEntry[];
  /** The entries' stored rows, by loc hash in hex. */
  existing: ReadonlyMap<string, ExistingUrl>;
  departed: readonly DepartedUrl[];
}

export interface ResolvedClusters {
  clusters: ClusterChanges;
  /** Live URLs outside the batch that a changed cluster names. */
  peers: PeerUrl[];
}

/**
 * The batch's declarations in order (later entries win), the departures, and the stored links
 * of the batch's live entries. `batch` and `gone` hold the hex of the batch's and the departed
 * pages; `unstored` are the entries with no live row.
 */
export function declareClusters(batch: Omit<ClusterBatch, 'site'> & { origin: string }) {
  const clusters = new ClusterChanges(`${batch.origin}/`);
  const inBatch = new Set<string>();
  for (const entry of batch.entries) {
    inBatch.add(entry.hex);
    if (entry.cluster.action === 'join') clusters.join(entry.cluster.cluster.members, entry);
    else if (entry.cluster.action === 'leave') clusters.leave(entry.hash, entry.hex, entry.url.loc);
  }
  const gone = new Set<string>();
  for (const url of batch.departed) {
    const hex = url.hash.toString('hex');
    gone.add(hex);
    clusters.depart(url.hash, hex, url.href, url.links);
  }
  // What is stored: a live row's links, else the pending ones (loaded later).
  const unstored: PreparedEntry[] = [];
  for (const entry of batch.entries) {
    const row = batch.existing.get(entry.hex);
    if (row && !row.deleted) clusters.setStored(entry.hex, row.alternates);
    else unstored.push(entry);
  }
  const outside = [...clusters.touched()].filter((claim) => !inBatch.has(claim.hex) && !gone.has(claim.hex));
  return { clusters, inBatch, outside, unstored };
}

/**
 * The pending links to write and to drop: entries take over theirs (drop), and each page outside
 * the batch that is not stored live gets the links its cluster now gives it, when they differ
 * from those pending (`before`).
 */
export function pendingChanges(state: {
  clusters: ClusterChanges;
  entries: readonly PreparedEntry[];
  pages: readonly (Claim | Remainder)[];
  live: ReadonlySet<string>;
  before: ReadonlyMap<string, Links>;
}): { set: { hash: Buffer; href: string; links: Links }[]; drop: Buffer[] } {
  const { clusters, before } = state;
  const set: { hash: Buffer; href: string; links: Links }[] = [];
  const drop: Buffer[] = state.entries.filter((entry) => before.has(entry.hex)).map((entry) => entry.hash);
  for (const page of state.pages) {
    if (state.live.has(page.hex)) continue;
    const links = clusters.linksOf(page.hex) ?? null;
    if (sameLinks(before.get(page.hex) ?? null, links)) continue;
    if (links) set.push({ hash: page.hash, href: page.href, links });
    else drop.push(page.hash);
  }
  return { set, drop };
}

export class ClusterResolver {
  constructor(
    private readonly urls: UrlWriteRepository,
    private readonly pending: PendingAlternateRepository,
  ) {}

  /**
   * The batch's clusters: declarations, the stored links of every page they name, then of the
   * pages whose cluster lost members. Writes the pending links that change.
   */
  async resolve(db: PoolClient, batch: ClusterBatch): Promise<ResolvedClusters> {
    const siteId = batch.site.id;
    const { clusters, inBatch, outside, unstored } = declareClusters({ ...batch, origin: siteOrigin(batch.site) });
    const peers = await this.urls.findLivePeers(
      db,
      siteId,
      outside.map((claim) => claim.hash),
    );
    for (const row of peers) clusters.setStored(row.loc_hash.toString('hex'), row.alternates);
    const live = new Set(peers.map((row) => row.loc_hash.toString('hex')));
    // Most sites have no pending links at all: one cheap question, asked once and only if there
    // is a page to look up, saves looking up every page. Only this write (it holds the site's
    // lock) adds any, and only after both lookups below.
    let anyPending: Promise<boolean> | undefined;
    const loadPending = async (pages: readonly { hash: Buffer; hex: string }[]) => {
      if (pages.length === 0) return new Map<string, Links>();
      const found = (await (anyPending ??= this.pending.anyForSite(db, siteId)))
        ? await this.pending.find(
            db,
            siteId,
            pages.map((page) => page.hash),
          )
        : new Map<string, Links>();
      for (const page of pages) clusters.setStored(page.hex, found.get(page.hex) ?? null);
      return found;
    };
    const before = await loadPending([...unstored, ...outside.filter((claim) => !live.has(claim.hex))]);

    const remainders = [...clusters.remainders().values()].filter((page) => !inBatch.has(page.hex));
    if (remainders.length > 0) {
      const more = await this.urls.findLivePeers(
        db,
        siteId,
        remainders.map((page) => page.hash),
      );
      for (const row of more) {
        clusters.setStored(row.loc_hash.toString('hex'), row.alternates);
        live.add(row.loc_hash.toString('hex'));
        peers.push(row);
      }
      for (const [hex, links] of await loadPending(remainders.filter((page) => !live.has(page.hex))))
        before.set(hex, links);
    }

    const { set, drop } = pendingChanges({
      clusters,
      entries: batch.entries,
      pages: [...outside, ...remainders],
      live,
      before,
    });
    await this.pending.drop(db, siteId, drop);
    await this.pending.save(db, siteId, set);
    return { clusters, peers };
  }
}
