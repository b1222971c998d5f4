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

export type ClusterResult =
  { ok: true; cluster: HreflangCluster } | { ok: false; field: string; code: string; message: string };

/**
 * The cluster an upsert declares: the given alternates plus the URL itself. The URL's own code
 * comes from its entry among the alternates, or from the entry's `hreflang` field.
 */
export function declareCluster(
  loc: string,
  ownHreflang: string | undefined,
  alternates: AlternateLink[],
): ClusterResult {
  let self: AlternateLink | undefined;
  for (let i = 0; i < alternates.length && self === undefined; i++)
    if ((alternates[i] as AlternateLink).href === loc) self = alternates[i];
  if (self && ownHreflang && self.hreflang !== ownHreflang) {
    return {
      ok: false,
      field: 'hreflang',
      code: 'HREFLANG_CONFLICT',
      message: `the URL is listed among its alternates as "${self.hreflang}" but hreflang says "${ownHreflang}"`,
    };
  }
  const members = alternates.slice();
  if (!self) {
    if (!ownHreflang) {
      return {
        ok: false,
        field: 'hreflang',
        code: 'HREFLANG_SELF_MISSING',
        message: "alternates need the URL's own language: set hreflang or list the URL among its alternates",
      };
    }
    members.push({ hreflang: ownHreflang, href: loc });
  }
  const index = firstRepeatedCode(members);
  if (index !== -1) {
    const code = (members[index] as AlternateLink).hreflang;
    return {
      ok: false,
      field: `alternates[${Math.min(index, alternates.length - 1)}].hreflang`,
      code: 'DUPLICATE_HREFLANG',
      message: `two URLs for hreflang "${code}" in one cluster`,
    };
  }
  return { ok: true, cluster: { members: sortByCode(members) } };
}

export function clusterOf(members: AlternateLink[]): HreflangCluster {
  return { members: sortByCode(members.slice()) };
}

// Declared for every URL of a bulk import: clusters are a handful of members, for which pairwise
// comparison and insertion sort beat a Set and Array#sort and allocate nothing.
const SMALL = 16;

/** The index of the first member whose code an earlier member has, or -1. */
function firstRepeatedCode(members: readonly AlternateLink[]): number {
  if (members.length > SMALL) {
    const codes = new Set<string>();
    for (let i = 0; i < members.length; i++) {
      const code = (members[i] as AlternateLink).hreflang;
      if (codes.has(code)) return i;
      codes.add(code);
    }
    return -1;
  }
  for (let i = 1; i < members.length; i++) {
    const code = (members[i] as AlternateLink).hreflang;
    for (let j = 0; j < i; j++) if ((members[j] as AlternateLink).hreflang === code) return i;
  }
  return -1;
}

/** Sorts in place by code, stably: the canonical order. */
function sortByCode(members: AlternateLink[]): AlternateLink[] {
  if (members.length > SMALL)
    return members.sort((a, b) => (a.hreflang < b.hreflang ? -1 : a.hreflang > b.hreflang ? 1 : 0));
  for (let i = 1; i < members.length; i++) {
    const member = members[i] as AlternateLink;
    let j = i - 1;
    for (; j >= 0 && (members[j] as AlternateLink).hreflang > member.hreflang; j--)
      members[j + 1] = members[j] as AlternateLink;
    members[j + 1] = member;
  }
  return members;
}
