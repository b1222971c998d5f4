// What a raw URL entry becomes before any database work: validated against the protocol
// (normalizeUrlEntry), given its section, its site's defaults and its declared hreflang cluster.
// The PUT path and the bulk import both go through here, so every rule has one home.
import {
  declareCluster,
  isFreshNews,
  linksJson,
  locHash,
  locHashWithHex,
  NEWS_SECTION,
  RESERVED_SECTIONS,
  SECTION_PATTERN,
  urlContentHash,
  type AlternateLink,
  type HreflangCluster,
} from '@sitemaps/domain';
import {
  normalizeHreflang,
  normalizeHttpUrl,
  normalizeUrlEntry,
  originOf,
  roundPriority,
  type SitemapUrl,
} from '@sitemaps/sitemap-xml';
import { repairEntry } from './imports/entry-repair';
import type { EncodedFields } from '@sitemaps/data';

export interface IngestSite {
  id: string;
  scheme: string;
  hostname: string;
  defaultChangefreq: string | null;
  defaultPriority: number | null;
  /** URLs per file for new shards (`sites.shard_size`, `sites.section_shard_sizes`); absent: 50,000. */
  shardSize?: number | null;
  sectionShardSizes?: unknown;
}

export interface EntryError {
  /** Position in the request (PUT) or line of the upload (import). */
  index: number;
  loc?: string;
  field: string;
  code: string;
  message: string;
}

export type ClusterAction =
  /** No `alternates` field: the URL stays in whatever cluster it is in. */
  | { action: 'keep' }
  /** `alternates: []`: the URL leaves its cluster. */
  | { action: 'leave' }
  /** A declared cluster. */
  | { action: 'join'; cluster: HreflangCluster };

export interface PreparedEntry {
  index: number;
  hash: Buffer;
  /** `hash` in hex: the key of every per-URL map. */
  hex: string;
  url: Omit<SitemapUrl, 'alternates'>;
  section: string;
  clientLastmod: string | undefined;
  cluster: ClusterAction;
  /** The client's exclusion flag (`excluded`); undefined: the stored one is left. */
  excluded?: boolean;
  /**
   * The links the entry itself declares, their JSON and the content hash with them. The batch
   * writer reuses these when the cluster in the database turns out to be exactly that (the usual
   * case), so the costly part runs while the previous batch is still in Postgres.
   */
  expected?: { links: AlternateLink[] | undefined; linksJson: string | undefined; contentHash: Buffer };
  /** Its row as a new URL, rendered and encoded ahead by a bulk import (UrlBatchWriter.stage). */
  staged?: StagedRow;
}

/** A new URL's row, rendered and encoded before its batch is written (UrlBatchWriter.stage). */
export interface StagedRow {
  /** Rendered with the links the entry declares (`expected`), or none if it declares none. */
  fragmentSize: number;
  /** Every column of its insert but the last, shard_id. */
  fields: EncodedFields;
}

export type PrepareResult =
  | { ok: true; entry: PreparedEntry; warnings: EntryError[] }
  /** `locHash`: the entry's loc when that field alone is valid, so a replace import keeps the URL. */
  | { ok: false; errors: EntryError[]; locHash?: Buffer };

/** The site's origin as normalized URLs spell it: every loc of the site starts with it and a `/`. */
export function siteOrigin(site: Pick<IngestSite, 'scheme' | 'hostname'>): string {
  return originOf(`${site.scheme}://${site.hostname}`) ?? `${site.scheme}://${site.hostname}`;
}

/** What preparing an entry needs besides the entry: the batch's instant, and how to treat it. */
export interface EntryContext {
  /** The batch's instant: news freshness and the platform's lastmod are judged by it. */
  now: Date;
  /** The site's origin (`siteOrigin`), when the caller has it already. */
  origin?: string;
  /** Imports of existing sitemaps repair what they can (entry-repair.ts) instead of refusing. */
  repair?: boolean;
}

/** How many rounds of repair an entry gets: each round can only reveal what the last one uncovered. */
const REPAIR_ROUNDS = 4;

/**
 * `repair` (imports of existing sitemaps): what entry-repair.ts can repair is repaired, with a
 * warning each, instead of refusing the entry; an hreflang cluster without the page's own
 * language keeps the page out of any declaration (see the HREFLANG_SELF_MISSING warning).
 */
export function prepareEntry(site: IngestSite, entry: unknown, index: number, context: EntryContext): PrepareResult {
  const { now, origin = siteOrigin(site), repair = false } = context;
  const rawLoc = isRecord(entry) && typeof entry.loc === 'string' ? entry.loc : undefined;
  // What a refusal needs, for the module's functions below (no closures per entry: hot path).
  const at: RejectContext = { index, rawLoc, origin };
  if (!isRecord(entry)) return fail(at, '', 'INVALID_TYPE', 'a URL entry must be an object');
  // `hreflang` (the URL's own language in its cluster) and `excluded` are ours, not the protocol's.
  const rawOwn = entry.hreflang;
  const rawExcluded = entry.excluded;
  if (rawExcluded !== undefined && rawExcluded !== null && typeof rawExcluded !== 'boolean')
    return fail(at, 'excluded', 'INVALID_TYPE', 'excluded must be true or false');
  let protocolFields = 'hreflang' in entry || 'excluded' in entry ? withoutPlatformFields(entry) : entry;
  let result = normalizeUrlEntry(protocolFields, { origin });
  // Allocated only when something is repaired: the strict path (PUT, uploads) is a hot one.
  let repairs: { field: string; code: string; message: string }[] | undefined;
  for (let round = 0; repair && !result.ok && round < REPAIR_ROUNDS; round++) {
    const repaired = repairEntry(protocolFields, result.errors);
    if (!repaired) break;
    protocolFields = repaired.entry;
    (repairs ??= []).push(...repaired.warnings);
    result = normalizeUrlEntry(protocolFields, { origin });
  }
  if (!result.ok) return reject(at, result.errors);
  const loc = result.url.loc;
  const warnings = (repairs ? [...repairs, ...result.warnings] : result.warnings).map((warning) => ({
    index,
    loc,
    ...warning,
  }));
  const section = result.section ?? '';
  if (section !== '' && (!SECTION_PATTERN.test(section) || RESERVED_SECTIONS.has(section))) {
    return fail(
      at,
      'section',
      'INVALID_SECTION',
      'section must be 1-40 lowercase letters, digits or dashes, and not a reserved name (sitemap, news, index)',
    );
  }
  let ownHreflang: string | undefined;
  if (rawOwn !== undefined && rawOwn !== null) {
    ownHreflang = typeof rawOwn === 'string' ? normalizeHreflang(rawOwn) : undefined;
    if (!ownHreflang)
      return fail(
        at,
        'hreflang',
        'INVALID_HREFLANG',
        'hreflang must be an ISO 639-1 language, optionally with an ISO 3166-1 region, or x-default',
      );
  }
  const normalized = result.url;
  let alternates = normalized.alternates;
  const { hash, hex } = locHashWithHex(normalized.loc);
  let cluster: ClusterAction = { action: 'keep' };
  if (Array.isArray(protocolFields.alternates)) {
    for (let round = 0; cluster.action === 'keep'; round++) {
      if ((alternates ?? []).length === 0) {
        cluster = { action: 'leave' };
        break;
      }
      const declared = declareCluster(normalized.loc, ownHreflang, alternates ?? []);
      if (declared.ok) cluster = { action: 'join', cluster: declared.cluster };
      else if (!repair || round >= REPAIR_ROUNDS) return fail(at, declared.field, declared.code, declared.message);
      else if (declared.code === 'HREFLANG_SELF_MISSING') {
        // The page's own language is nowhere in its entry: nothing to add it with. It declares no
        // cluster; the pages that list it give it their links (their cluster names its language).
        const message = 'the page is not among its own hreflang links, so its language is unknown';
        warnings.push({
          index,
          loc,
          field: 'alternates',
          code: declared.code,
          message: `${message}: its links are taken from the pages that list it, the page kept`,
        });
        break;
      } else {
        const dropped = /^alternates\[(\d+)\]/.exec(declared.field);
        if (!dropped) return fail(at, declared.field, declared.code, declared.message);
        warnings.push({
          index,
          loc,
          field: declared.field,
          code: declared.code,
          message: `${declared.message}: the link is dropped, the page kept`,
        });
        alternates = (alternates ?? []).filter((_link, i) => i !== Number(dropped[1]));
      }
    }
  }
  // The normalized object is ours alone: it becomes the entry's URL, without its alternates (the
  // cluster says which links it gets) and with the site's defaults. Assigned, not deleted: an
  // object keeps its fast shape.
  const url: Omit<SitemapUrl, 'alternates'> & { alternates?: undefined } = normalized as Omit<SitemapUrl, 'alternates'>;
  if (alternates !== undefined) url.alternates = undefined;
  if (url.changefreq === undefined && site.defaultChangefreq)
    url.changefreq = site.defaultChangefreq as SitemapUrl['changefreq'];
  if (url.priority === undefined && site.defaultPriority !== null) url.priority = roundPriority(site.defaultPriority);
  const prepared: PreparedEntry = {
    index,
    hash,
    hex,
    url,
    section: isFreshNews(url.news, now) ? NEWS_SECTION : section,
    clientLastmod: url.lastmod,
    cluster,
  };
  if (typeof rawExcluded === 'boolean') prepared.excluded = rawExcluded;
  if (cluster.action !== 'keep') {
    const links = cluster.action === 'join' ? linksOfCluster(cluster.cluster.members) : undefined;
    const json = links && linksJson(links);
    prepared.expected = {
      links,
      linksJson: json,
      contentHash: urlContentHash(url, prepared.section, prepared.clientLastmod, json),
    };
  }
  return { ok: true, entry: prepared, warnings };
}

interface RejectContext {
  index: number;
  rawLoc: string | undefined;
  origin: string;
}

function reject(at: RejectContext, violations: { field: string; code: string; message: string }[]): PrepareResult {
  const errors = violations.map((violation) => ({
    index: at.index,
    ...(at.rawLoc === undefined ? {} : { loc: at.rawLoc }),
    ...violation,
  }));
  const hash = errors.some((error) => error.field === 'loc') ? undefined : validLocHash(at.rawLoc, at.origin);
  return hash ? { ok: false, errors, locHash: hash } : { ok: false, errors };
}

function fail(at: RejectContext, field: string, code: string, message: string): PrepareResult {
  return reject(at, [{ field, code, message }]);
}

/** A URL's links: its cluster's members in canonical order; none for a cluster of one. */
export function linksOfCluster(members: AlternateLink[]): AlternateLink[] | undefined {
  return members.length > 1 ? members : undefined;
}

function validLocHash(rawLoc: string | undefined, origin: string): Buffer | undefined {
  if (rawLoc === undefined) return undefined;
  const normalized = normalizeHttpUrl(rawLoc);
  return normalized.ok && normalized.origin === origin ? locHash(normalized.href) : undefined;
}

function withoutPlatformFields(entry: Record<string, unknown>): Record<string, unknown> {
  const { hreflang: _own, excluded: _excluded, ...fields } = entry;
  return fields;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
