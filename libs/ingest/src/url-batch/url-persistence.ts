// URL persistence: which rows a batch writes and what they hold (the fragment rendered at
// ingest, the news block only while the article is fresh), then writing them (COPY, in the urls
// repository). The decisions are pure; `persistUrls` is the one step that touches the database.
import type { PoolClient } from 'pg';
import {
  type EncodedFields,
  type ExistingUrl,
  type NewUrlRow,
  type PeerUrl,
  type UrlRowUpdate,
  type UrlRowValues,
  type UrlWriteRepository,
} from '@sitemaps/data';
import { isFreshNews, linksJson, newsUntil, sameLinks, urlContentHash, type Links } from '@sitemaps/domain';
import { namespacesOf, renderUrlFragment, type SitemapUrl } from '@sitemaps/sitemap-xml';
import type { PreparedEntry, StagedRow } from '../url-entry.preparer';
import type { PlacedWrite } from './shard-placement';

/** A URL row to write: new (no id), or revived, moved or re-rendered (id). */
export interface RowWrite extends PlacedWrite, UrlRowValues {
  kind: 'row';
}

/** A new URL whose row was staged: every column encoded but shard_id. */
export interface StagedWrite extends PlacedWrite {
  kind: 'staged';
  id: null;
  fields: EncodedFields;
}

export type Write = RowWrite | StagedWrite;

export interface RowInput {
  hash: Buffer;
  /** Its `lastmod`, when absent, is unknown: none is written (see `unsentLastmod`). */
  url: SitemapUrl;
  /** The links' JSON (`linksJson`). */
  linksJson: string | undefined;
  section: string;
  contentHash: Buffer;
  lastmodGiven: boolean;
  /** The stored row, if any. */
  row: ExistingUrl | undefined;
  now: Date;
}

/** The row written for `input`, and where it stands with shards (kept, needs one, leaves one). */
export function rowWrite(input: RowInput): RowWrite {
  const { url, section, row, now } = input;
  // The news block is written only while the article is fresh; the data itself is kept.
  const news = url.news;
  const written: SitemapUrl = news === undefined || isFreshNews(news, now) ? url : withoutNews(url);
  const fragment = renderUrlFragment(written);
  const live = row !== undefined && !row.deleted && row.shard_id !== null;
  const moves = Boolean(live && row.section !== section);
  return {
    kind: 'row',
    id: row?.id ?? null,
    hash: input.hash,
    loc: url.loc,
    section,
    shardId: live && !moves ? row.shard_id : null,
    lastmod: url.lastmod ?? null,
    lastmodGiven: input.lastmodGiven,
    changefreq: url.changefreq ?? null,
    priority: url.priority ?? null,
    images: url.images ?? null,
    videos: url.videos ?? null,
    news: news ?? null,
    alternates: input.linksJson ?? null,
    newsUntil: written.news ? newsUntil(news) : null,
    contentHash: input.contentHash,
    fragment,
    fragmentSize: Buffer.byteLength(fragment),
    nsMask: namespacesOf(written),
    needsShard: !live || moves,
    previous: live ? { shardId: row.shard_id as string, size: row.fragment_size, leaves: moves } : null,
  };
}

export interface EntryWriteInput {
  entry: PreparedEntry;
  /** Its stored row, live or deleted. */
  row: ExistingUrl | undefined;
  /** Its links after the batch (cluster resolution). */
  links: Links | undefined;
  now: Date;
  /** `platformLastmod(now)`: the lastmod of an entry that gives none. */
  nowLastmod: string;
}

/**
 * What writing `entry` takes: its staged row when it is new and its cluster the one it declared,
 * nothing when the stored row already holds it, else its row.
 */
export function entryWrite(input: EntryWriteInput): Write | undefined {
  const { entry, row, now } = input;
  let links = input.links;
  if (entry.staged && row === undefined && sameLinks(entry.expected?.links, links))
    return stagedWrite(entry, entry.staged);
  let json: string | undefined;
  let hash: Buffer;
  if (entry.expected && sameLinks(entry.expected.links, links))
    ({ links, linksJson: json, contentHash: hash } = entry.expected);
  else {
    // Truthful lastmod: the hash covers everything written except a lastmod the platform sets.
    json = links && linksJson(links);
    hash = urlContentHash(entry.url, entry.section, entry.clientLastmod, json);
  }
  if (row && !row.deleted && row.section === entry.section && row.content_hash.equals(hash)) return undefined;
  const lastmod =
    entry.clientLastmod ?? unsentLastmod({ entry, row, hash, linksJson: json, nowLastmod: input.nowLastmod });
  return rowWrite({
    hash: entry.hash,
    url: { ...entry.url, lastmod: lastmod ?? undefined, alternates: links },
    linksJson: json,
    section: entry.section,
    contentHash: hash,
    lastmodGiven: entry.clientLastmod !== undefined,
    row,
    now,
  });
}

/**
 * The lastmod of an entry written without one: unknown until the platform has seen the URL's
 * content change. A new URL has none (a page imported today may be unchanged since 2015); a
 * stored one whose content changed gets the moment of the change; one whose content did not — a
 * revival, a move to another section, a news block aged out, a lastmod the client stopped
 * sending — keeps the platform's lastmod it had (none if the one it had was the client's).
 */
export function unsentLastmod(input: {
  entry: PreparedEntry;
  row: ExistingUrl | undefined;
  /** The entry's content hash as written now, and its links' JSON. */
  hash: Buffer;
  linksJson: string | undefined;
  nowLastmod: string;
}): string | null {
  const { entry, row } = input;
  if (row === undefined) return null;
  const kept = row.lastmod_given ? null : row.lastmod;
  if (row.content_hash.equals(input.hash)) return kept;
  // The hash covers the section and a client's lastmod, which are not the page's content.
  if (row.section !== entry.section || row.lastmod_given) {
    const given = row.lastmod_given ? (row.lastmod ?? undefined) : undefined;
    if (urlContentHash(entry.url, row.section, given, input.linksJson).equals(row.content_hash)) return kept;
  }
  return input.nowLastmod;
}

/** A live URL outside the batch re-rendered with its cluster's new links; nothing if they are its own. */
export function peerWrite(input: {
  row: PeerUrl;
  links: Links | undefined;
  now: Date;
  nowLastmod: string;
}): RowWrite | undefined {
  const { row, links } = input;
  if (sameLinks(row.alternates, links ?? null)) return undefined;
  const stored = storedUrl(row);
  const json = links && linksJson(links);
  const hash = urlContentHash(stored, row.section, row.lastmod_given ? (row.lastmod ?? undefined) : undefined, json);
  const lastmod = row.lastmod_given && row.lastmod ? row.lastmod : input.nowLastmod;
  return rowWrite({
    hash: row.loc_hash,
    url: { ...stored, lastmod, ...(links ? { alternates: links } : {}) },
    linksJson: json,
    section: row.section,
    contentHash: hash,
    lastmodGiven: row.lastmod_given,
    row,
    now: input.now,
  });
}

/** The sitemap entry of a stored row, without its links and lastmod. */
export function storedUrl(
  row: Pick<PeerUrl, 'loc' | 'changefreq' | 'priority' | 'images' | 'videos' | 'news'>,
): Omit<SitemapUrl, 'alternates' | 'lastmod'> {
  return {
    loc: row.loc,
    ...(row.changefreq ? { changefreq: row.changefreq as SitemapUrl['changefreq'] } : {}),
    ...(row.priority !== null ? { priority: row.priority } : {}),
    ...(row.images ? { images: row.images } : {}),
    ...(row.videos ? { videos: row.videos } : {}),
    ...(row.news ? { news: row.news } : {}),
  };
}

/** Writes placed rows: new ones copied into `urls`, stored ones updated. Returns how many were new. */
export async function persistUrls(
  db: PoolClient,
  urls: UrlWriteRepository,
  batch: { siteId: string; writes: readonly Write[]; now: Date },
): Promise<number> {
  const { siteId, writes, now } = batch;
  const inserts = writes.filter((write) => write.id === null) as NewUrlRow[];
  const updates = writes.filter((write): write is RowWrite => write.id !== null) as UrlRowUpdate[];
  await urls.insert(db, { siteId, rows: inserts, now });
  await urls.update(db, updates, now);
  return inserts.length;
}

function stagedWrite(entry: PreparedEntry, staged: StagedRow): StagedWrite {
  return {
    kind: 'staged',
    id: null,
    hash: entry.hash,
    section: entry.section,
    shardId: null,
    fragmentSize: staged.fragmentSize,
    needsShard: true,
    previous: null,
    fields: staged.fields,
  };
}

function withoutNews(url: SitemapUrl): SitemapUrl {
  const { news: _news, ...rest } = url;
  return rest;
}
