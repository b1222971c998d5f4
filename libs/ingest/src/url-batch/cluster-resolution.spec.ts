import { describe, expect, it } from 'vitest';
import type { ExistingUrl } from '@sitemaps/data';
import { locHash } from '@sitemaps/domain';
import { prepareEntry, type IngestSite, type PreparedEntry } from '../url-entry.preparer';
import { declareClusters, pendingChanges } from './cluster-resolution';

const site: IngestSite = {
  id: '6f1c2a4e-0b1d-4c8e-9a77-3d5b2e8f0c11',
  scheme: 'https',
  hostname: 'shop.example.com',
  defaultChangefreq: null,
  defaultPriority: null,
};
const origin = 'https://shop.example.com';
const now = new Date('2026-03-01T12:00:00Z');
const loc = (path: string) => `${origin}${path}`;
const hex = (path: string) => locHash(loc(path)).toString('hex');

function prepared(raws: object[]): PreparedEntry[] {
  return raws.map((raw, index) => {
    const result = prepareEntry(site, raw, index, { now });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.entry;
  });
}

const live = (path: string, alternates: ExistingUrl['alternates']): ExistingUrl => ({
  id: '1',
  loc_hash: locHash(loc(path)),
  section: '',
  shard_id: '1',
  fragment_size: 10,
  deleted: false,
  content_hash: Buffer.alloc(32),
  alternates,
  lastmod: null,
  lastmod_given: false,
});

describe('cluster resolution decisions', () => {
  it('names the pages outside the batch that a declaration touches, and the entries with no live row', () => {
    const entries = prepared([
      { loc: loc('/en'), hreflang: 'en', alternates: [{ hreflang: 'de', href: loc('/de') }] },
      { loc: loc('/fr') },
    ]);
    const { clusters, inBatch, outside, unstored } = declareClusters({
      origin,
      entries,
      existing: new Map([[hex('/fr'), live('/fr', null)]]),
      departed: [],
    });
    expect([...inBatch]).toEqual([hex('/en'), hex('/fr')]);
    expect(outside.map((claim) => claim.href)).toEqual([loc('/de')]);
    expect(unstored.map((entry) => entry.url.loc)).toEqual([loc('/en')]);
    expect(clusters.linksOf(hex('/en'))?.map((link) => link.href)).toEqual([loc('/de'), loc('/en')]);
  });

  it('leaves departed pages out of the pages to look up', () => {
    const links = [
      { hreflang: 'de', href: loc('/de') },
      { hreflang: 'en', href: loc('/en') },
    ];
    const { outside } = declareClusters({
      origin,
      entries: [],
      existing: new Map(),
      departed: [{ hash: locHash(loc('/en')), href: loc('/en'), links }],
    });
    expect(outside.map((claim) => claim.href)).not.toContain(loc('/en'));
  });

  it('keeps links pending for a page not stored, takes them over for an entry, and drops those that end', () => {
    const entries = prepared([
      { loc: loc('/en'), hreflang: 'en', alternates: [{ hreflang: 'de', href: loc('/de') }] },
      { loc: loc('/it') },
    ]);
    const { clusters, outside, unstored } = declareClusters({ origin, entries, existing: new Map(), departed: [] });
    for (const page of [...unstored, ...outside]) clusters.setStored(page.hex, null);
    const stale = [{ hreflang: 'x', href: loc('/x') }];
    const before = new Map([[hex('/it'), stale]]);
    const { set, drop } = pendingChanges({ clusters, entries, pages: outside, live: new Set(), before });
    expect(set.map((page) => [page.href, page.links.map((link) => link.href)])).toEqual([
      [loc('/de'), [loc('/de'), loc('/en')]],
    ]);
    // /it is stored by this batch: its pending links are its own now.
    expect(drop).toEqual([locHash(loc('/it'))]);

    // A page stored live carries its links in its row, never pending.
    expect(
      pendingChanges({ clusters, entries: [], pages: outside, live: new Set([hex('/de')]), before: new Map() }),
    ).toEqual({ set: [], drop: [] });
    // The same links already pending: nothing to write.
    const pending = new Map([[hex('/de'), clusters.linksOf(hex('/de')) ?? []]]);
    expect(pendingChanges({ clusters, entries: [], pages: outside, live: new Set(), before: pending })).toEqual({
      set: [],
      drop: [],
    });
  });
});
