// What one write does to a site's hreflang clusters, worked out in memory from the declarations
// of the batch and the links stored before it. Every page of the site (an href on its own
// origin) is in at most one cluster, and every stored member of a cluster carries the same
// links, so a cluster is reciprocal by construction. Hrefs on other hosts are only listed: they
// are not pages of this site, nothing re-renders them, and several clusters may name one.
//
// The caller (the ingest's batch writer) feeds it in three steps, loading from the database
// in between: declarations (`join`, `leave`, `depart`), the stored links of every href it then
// names (`touched`, `setStored`), and those of the pages whose cluster lost members
// (`remainders`, `setStored` again). `linksOf` then gives each page its links.
import { locHash } from '../urls/url-content';
import type { AlternateLink } from './hreflang-cluster';

export type Links = AlternateLink[];

/** A page of the site the batch assigns a cluster to (`links`), or takes out of one (null). */
export interface Claim {
  hash: Buffer;
  hex: string;
  href: string;
  links: Links | null;
  /** The hex of each own member of the declared cluster `links` (shared by its claims). */
  own?: readonly string[];
}

/** A page outside the batch whose cluster lost members: `from` is that cluster, `links` what is left. */
export interface Remainder {
  hash: Buffer;
  hex: string;
  href: string;
  from: Links;
  links: Links | null;
}

export class ClusterChanges {
  /** Touched pages, by loc hash (hex); the batch's last word on each. */
  readonly claims = new Map<string, Claim>();
  /** Links before the batch: a live URL's, or a pending claim's; null for none. */
  private readonly stored = new Map<string, Links | null>();
  private readonly reduced = new Map<Links, Links | null>();
  private remaining: Map<string, Remainder> | undefined;

  /** `ownPrefix`: the site's origin and `/`, with which every one of its pages starts. */
  constructor(private readonly ownPrefix: string) {}

  /** A declared cluster, `members` in canonical order; `self` is the declaring URL. */
  join(members: Links, self: { hash: Buffer; hex: string; url: { loc: string } }): void {
    // Filled as the claims are made; they all hold it (no map keyed by the cluster: this runs
    // for every entry of a batch).
    const own: string[] = [];
    for (const member of members) {
      // Hrefs on other hosts are not pages of the site: no hash, no claim.
      if (!member.href.startsWith(this.ownPrefix)) continue;
      const hash = member.href === self.url.loc ? self.hash : locHash(member.href);
      const hex = hash === self.hash ? self.hex : hash.toString('hex');
      own.push(hex);
      this.claims.set(hex, { hash, hex, href: member.href, links: members, own });
    }
  }

  /** The URL leaves its cluster (`alternates: []`). */
  leave(hash: Buffer, hex: string, href: string): void {
    this.claims.set(hex, { hash, hex, href, links: null });
  }

  /** A deleted URL: it leaves `links`, the cluster it had. */
  depart(hash: Buffer, hex: string, href: string, links: Links | null): void {
    this.claims.set(hex, { hash, hex, href, links: null });
    this.stored.set(hex, links);
  }

  /** Every touched page: the caller looks up the stored links of those not yet known. */
  touched(): Iterable<Claim> {
    return this.claims.values();
  }

  setStored(hex: string, links: Links | null): void {
    this.stored.set(hex, links);
  }

  /**
   * Pages outside the batch in a stored cluster that lost members, with what is left of it.
   * Call once the stored links of every touched page are set.
   */
  remainders(): Map<string, Remainder> {
    if (this.remaining) return this.remaining;
    const lost = new Map<string, { links: Links; gone: Set<string> }>();
    for (const claim of this.claims.values()) {
      const before = this.stored.get(claim.hex);
      if (!before || sameLinks(before, claim.links)) continue;
      const key = keyOf(before);
      const cluster = lost.get(key) ?? { links: before, gone: new Set<string>() };
      cluster.gone.add(claim.href);
      lost.set(key, cluster);
    }
    this.remaining = new Map();
    for (const { links, gone } of lost.values()) {
      const left = links.filter((link) => !gone.has(link.href));
      const after = left.length > 1 ? left : null;
      for (const link of left) {
        if (!link.href.startsWith(this.ownPrefix)) continue;
        const hash = locHash(link.href);
        const hex = hash.toString('hex');
        if (!this.claims.has(hex)) this.remaining.set(hex, { hash, hex, href: link.href, from: links, links: after });
      }
    }
    return this.remaining;
  }

  /**
   * A page's links after the batch, in canonical order; undefined for none. A remainder whose
   * stored links are not the cluster it was found in is left as it is.
   */
  linksOf(hex: string): Links | undefined {
    const claim = this.claims.get(hex);
    if (claim) return claim.links ? (this.reduce(claim.links, claim.own ?? []) ?? undefined) : undefined;
    const remainder = this.remaining?.get(hex);
    const stored = this.stored.get(hex) ?? null;
    if (remainder && stored && sameLinks(stored, remainder.from)) return remainder.links ?? undefined;
    return stored ?? undefined;
  }

  /**
   * A declared cluster without the members a later declaration of the batch took away. `own`:
   * its own members' hex; a cluster with one (the usual batch: the others are on other hosts)
   * is the asking page's, which holds it, so nothing was taken away.
   */
  private reduce(links: Links, own: readonly string[]): Links | null {
    if (own.length <= 1) return links.length > 1 ? links : null;
    const cached = this.reduced.get(links);
    if (cached !== undefined) return cached;
    let gone: Set<string> | undefined;
    for (const hex of own) {
      const claim = this.claims.get(hex) as Claim;
      if (claim.links !== links) (gone ??= new Set()).add(claim.href);
    }
    const left = gone === undefined ? links : links.filter((link) => !gone.has(link.href));
    const result = left.length > 1 ? left : null;
    this.reduced.set(links, result);
    return result;
  }
}

/** Same links in the same order (both canonical). */
export function sameLinks(
  a: readonly AlternateLink[] | null | undefined,
  b: readonly AlternateLink[] | null | undefined,
): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as AlternateLink;
    const y = b[i] as AlternateLink;
    if (x.hreflang !== y.hreflang || x.href !== y.href) return false;
  }
  return true;
}

function keyOf(links: Links): string {
  let key = '';
  for (const link of links) key += `${link.hreflang}\0${link.href}\n`;
  return key;
}
