// hreflang alternates are stored as clusters: one set of {hreflang, href} per group of
// translations. Every URL of a cluster lists all members, itself included, so the links are
// reciprocal by construction (Google ignores non-reciprocal ones).
export interface AlternateLink {
  hreflang: string;
  href: string;
}

export interface HreflangCluster {
  /** In canonical order (by code): equal clusters, equal lists. */
  members: AlternateLink[];
}

export type ClusterResult = { ok: true; cluster: HreflangCluster } | { ok: false; field: string; code: string; message: string };

/**
 * The cluster an upsert declares: the given alternates plus the URL itself. The URL's own code
 * comes from its entry among the alternates, or from the entry's `hreflang` field.
 */
export function declareCluster(loc: string, ownHreflang: string | undefined, alternates: AlternateLink[]): ClusterResult {
  const members = [...alternates];
  const self = members.find((member) => member.href === loc);
  if (self && ownHreflang && self.hreflang !== ownHreflang) {
    return { ok: false, field: 'hreflang', code: 'HREFLANG_CONFLICT', message: `the URL is listed among its alternates as "${self.hreflang}" but hreflang says "${ownHreflang}"` };
  }
  if (!self) {
    if (!ownHreflang) {
      return { ok: false, field: 'hreflang', code: 'HREFLANG_SELF_MISSING', message: 'alternates need the URL\'s own language: set hreflang or list the URL among its alternates' };
    }
    members.push({ hreflang: ownHreflang, href: loc });
  }
  const codes = new Set<string>();
  for (const [index, member] of members.entries()) {
    if (codes.has(member.hreflang)) {
      return { ok: false, field: `alternates[${Math.min(index, alternates.length - 1)}].hreflang`, code: 'DUPLICATE_HREFLANG', message: `two URLs for hreflang "${member.hreflang}" in one cluster` };
    }
    codes.add(member.hreflang);
  }
  return { ok: true, cluster: clusterOf(members) };
}

export function clusterOf(members: AlternateLink[]): HreflangCluster {
  return { members: [...members].sort((a, b) => (a.hreflang < b.hreflang ? -1 : a.hreflang > b.hreflang ? 1 : 0)) };
}
