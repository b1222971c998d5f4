import { describe, expect, it } from 'vitest';
import type { ExistingUrl, PeerUrl } from '@sitemaps/data';
import { platformLastmod } from '@sitemaps/domain';
import { prepareEntry, type IngestSite, type PreparedEntry } from '../url-entry.preparer';
import { entryWrite, peerWrite, rowWrite } from './url-persistence';

const site: IngestSite = {
  id: '6f1c2a4e-0b1d-4c8e-9a77-3d5b2e8f0c11',
  scheme: 'https',
  hostname: 'shop.example.com',
  defaultChangefreq: null,
  defaultPriority: null,
};
const now = new Date('2026-03-01T12:00:00Z');
const nowLastmod = platformLastmod(now);
const loc = (path: string) => `https://shop.example.com${path}`;

function prepared(raw: object): PreparedEntry {
  const result = prepareEntry(site, raw, 0, { now });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.entry;
}

const stored = (overrides: Partial<ExistingUrl>): ExistingUrl => ({
  id: '10',
  loc_hash: Buffer.alloc(16),
  section: '',
  shard_id: '5',
  fragment_size: 50,
  deleted: false,
  content_hash: Buffer.alloc(32),
  alternates: null,
  lastmod: null,
  lastmod_given: false,
  ...overrides,
});

describe('URL persistence decisions', () => {
  it('writes the news block only while the article is fresh, and keeps the news data', () => {
    const news = { publicationName: 'N', publicationLanguage: 'en', title: 'T' };
    const base = { hash: Buffer.alloc(16), linksJson: undefined, contentHash: Buffer.alloc(32) };
    const fresh = rowWrite({
      ...base,
      url: { loc: loc('/a'), lastmod: nowLastmod, news: { ...news, publicationDate: '2026-03-01T10:00:00Z' } },
      section: 'news',
      lastmodGiven: false,
      row: undefined,
      now,
    });
    const old = rowWrite({
      ...base,
      url: { loc: loc('/b'), lastmod: nowLastmod, news: { ...news, publicationDate: '2025-01-01' } },
      section: '',
      lastmodGiven: false,
      row: undefined,
      now,
    });
    expect(fresh.fragment).toContain('<news:news>');
    expect(fresh.newsUntil).toBeInstanceOf(Date);
    expect(old.fragment).not.toContain('<news:news>');
    expect(old.newsUntil).toBeNull();
    expect(old.news).toMatchObject({ title: 'T' });
    expect(old.fragmentSize).toBe(Buffer.byteLength(old.fragment));
  });

  it('keeps a live row in its shard, moves it on a section change, and places a revived one anew', () => {
    const input = {
      hash: Buffer.alloc(16),
      url: { loc: loc('/a'), lastmod: nowLastmod },
      linksJson: undefined,
      section: '',
      contentHash: Buffer.alloc(32),
      lastmodGiven: false,
      now,
    };
    expect(rowWrite({ ...input, row: stored({}) })).toMatchObject({
      id: '10',
      shardId: '5',
      needsShard: false,
      previous: { shardId: '5', size: 50, leaves: false },
    });
    expect(rowWrite({ ...input, row: stored({ section: 'news' }) })).toMatchObject({
      shardId: null,
      needsShard: true,
      previous: { shardId: '5', size: 50, leaves: true },
    });
    expect(rowWrite({ ...input, row: stored({ deleted: true }) })).toMatchObject({
      id: '10',
      shardId: null,
      needsShard: true,
      previous: null,
    });
  });

  it('writes nothing for an entry its live row already holds, and its row when it changed', () => {
    const entry = prepared({ loc: loc('/same'), priority: 0.5 });
    const first = entryWrite({ entry, row: undefined, links: undefined, now, nowLastmod });
    expect(first).toMatchObject({ kind: 'row', id: null, needsShard: true, lastmod: null });
    const row = stored({ content_hash: (first as { contentHash: Buffer }).contentHash });
    expect(entryWrite({ entry, row, links: undefined, now, nowLastmod })).toBeUndefined();
    expect(entryWrite({ entry, row: { ...row, deleted: true }, links: undefined, now, nowLastmod })).toMatchObject({
      id: '10',
    });
    const changed = prepared({ loc: loc('/same'), priority: 0.6 });
    expect(entryWrite({ entry: changed, row, links: undefined, now, nowLastmod })).toMatchObject({ id: '10' });
  });

  it('writes no lastmod for a URL first seen without one, and the moment of a change the platform sees', () => {
    const first = entryWrite({
      entry: prepared({ loc: loc('/a') }),
      row: undefined,
      links: undefined,
      now,
      nowLastmod,
    });
    expect(first).toMatchObject({ lastmod: null, lastmodGiven: false });
    expect((first as { fragment: string }).fragment).not.toContain('lastmod');
    const row = stored({ content_hash: (first as { contentHash: Buffer }).contentHash });
    const changed = entryWrite({
      entry: prepared({ loc: loc('/a'), priority: 0.2 }),
      row,
      links: undefined,
      now,
      nowLastmod,
    });
    expect(changed).toMatchObject({ lastmod: nowLastmod, lastmodGiven: false });
    expect((changed as { fragment: string }).fragment).toContain(`<lastmod>${nowLastmod}</lastmod>`);
  });

  it('keeps the lastmod it had for a URL whose content did not change: revived, moved, or lastmod withdrawn', () => {
    const entry = prepared({ loc: loc('/a'), priority: 0.2 });
    const hash = (entryWrite({ entry, row: undefined, links: undefined, now, nowLastmod }) as { contentHash: Buffer })
      .contentHash;
    const earlier = '2026-01-01T00:00:00Z';
    const revived = stored({ deleted: true, content_hash: hash, lastmod: earlier });
    expect(entryWrite({ entry, row: revived, links: undefined, now, nowLastmod })).toMatchObject({ lastmod: earlier });
    expect(entryWrite({ entry, row: { ...revived, lastmod: null }, links: undefined, now, nowLastmod })).toMatchObject({
      lastmod: null,
    });
    // The same content, stored in another section.
    const elsewhere = prepareEntry(site, { loc: loc('/a'), priority: 0.2, section: 'shop' }, 0, { now });
    if (!elsewhere.ok) throw new Error('not ok');
    expect(
      entryWrite({
        entry: elsewhere.entry,
        row: stored({ content_hash: hash, lastmod: earlier }),
        links: undefined,
        now,
        nowLastmod,
      }),
    ).toMatchObject({ lastmod: earlier, section: 'shop' });
    // The client sent a lastmod before and sends none now: unknown again, not "changed now".
    const given = prepared({ loc: loc('/a'), priority: 0.2, lastmod: '2025-06-01' });
    const givenHash = (
      entryWrite({ entry: given, row: undefined, links: undefined, now, nowLastmod }) as {
        contentHash: Buffer;
      }
    ).contentHash;
    const withdrawn = entryWrite({
      entry,
      row: stored({ content_hash: givenHash, lastmod: '2025-06-01', lastmod_given: true }),
      links: undefined,
      now,
      nowLastmod,
    });
    expect(withdrawn).toMatchObject({ lastmod: null, lastmodGiven: false });
  });

  it('uses a staged row only for a new URL whose links are the ones it declared', () => {
    const links = [
      { hreflang: 'en', href: loc('/en') },
      { hreflang: 'de', href: loc('/de') },
    ];
    const entry = prepared({ loc: loc('/en'), hreflang: 'en', alternates: [{ hreflang: 'de', href: loc('/de') }] });
    entry.staged = { fragmentSize: 7, fields: { bytes: Buffer.alloc(0), count: 0 } };
    expect(entryWrite({ entry, row: undefined, links: entry.expected?.links, now, nowLastmod })).toMatchObject({
      kind: 'staged',
      fragmentSize: 7,
    });
    expect(entryWrite({ entry, row: undefined, links: links.slice(0, 1), now, nowLastmod })?.kind).toBe('row');
    expect(entryWrite({ entry, row: stored({}), links: entry.expected?.links, now, nowLastmod })?.kind).toBe('row');
  });

  it("re-renders a peer only when its cluster's links changed, keeping a lastmod it was given", () => {
    const links = [
      { hreflang: 'de', href: loc('/de') },
      { hreflang: 'en', href: loc('/en') },
    ];
    const peer: PeerUrl = {
      ...stored({ alternates: links, lastmod: '2025-12-24', lastmod_given: true }),
      loc: loc('/de'),
      changefreq: null,
      priority: null,
      images: null,
      videos: null,
      news: null,
    };
    expect(peerWrite({ row: peer, links, now, nowLastmod })).toBeUndefined();
    const alone = peerWrite({ row: peer, links: undefined, now, nowLastmod });
    expect(alone).toMatchObject({ id: '10', lastmod: '2025-12-24', alternates: null, shardId: '5' });
    expect(alone?.fragment).not.toContain('hreflang');
    expect(peerWrite({ row: { ...peer, lastmod_given: false }, links: undefined, now, nowLastmod })?.lastmod).toBe(
      nowLastmod,
    );
  });
});
