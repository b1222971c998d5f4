// Upserts and deletes of a site's URLs: validate each entry against the protocol, keep hreflang
// clusters reciprocal, render changed URLs' fragments (render at ingest), assign new URLs to
// shards and mark exactly the touched shards dirty, all in one transaction per batch.
import type { Pool, PoolClient } from 'pg';
import {
  clusterOf,
  contentHash,
  declareCluster,
  DEFAULT_SHARD_LIMITS,
  isFreshNews,
  lastmodInstant,
  MAX_NEWS_URLS_PER_FILE,
  NEWS_SECTION,
  newsUntil,
  locHash,
  planNewUrls,
  platformLastmod,
  RESERVED_SECTIONS,
  SECTION_PATTERN,
  type AlternateLink,
  type HreflangCluster,
  type ShardFill,
  type ShardLimits,
  type UrlContent,
} from '@sitemaps/domain';
import {
  namespacesOf,
  normalizeHreflang,
  normalizeUrlEntry,
  renderUrlFragment,
  type SitemapUrl,
} from '@sitemaps/sitemap-xml';

export interface IngestSite {
  id: string;
  scheme: string;
  hostname: string;
  defaultChangefreq: string | null;
  defaultPriority: number | null;
}

export interface EntryError {
  index: number;
  loc?: string;
  field: string;
  code: string;
  message: string;
}

export interface UpsertResult {
  /** Valid entries stored (changed or already equal). */
  upserted: number;
  /** URLs whose sitemap content changed, including cluster peers re-rendered. */
  changed: number;
  errors: EntryError[];
  warnings: EntryError[];
}

/** What a valid entry becomes before the transaction. */
interface PreparedEntry {
  index: number;
  hash: Buffer;
  url: Omit<SitemapUrl, 'alternates'>;
  section: string;
  clientLastmod: string | undefined;
  /** keep: no `alternates` field; leave: `alternates: []`; join: a declared cluster. */
  cluster: { action: 'keep' } | { action: 'leave' } | { action: 'join'; cluster: HreflangCluster };
}

interface ExistingRow {
  id: string;
  loc_hash: Buffer;
  loc: string;
  section: string;
  shard_id: string | null;
  fragment_size: number;
  deleted: boolean;
  content_hash: Buffer;
  lastmod: string | null;
  lastmod_given: boolean;
  changefreq: string | null;
  priority: number | null;
  images: SitemapUrl['images'] | null;
  videos: SitemapUrl['videos'] | null;
  news: SitemapUrl['news'] | null;
}

/** A URL row to write: new, revived, moved or re-rendered. */
interface RowWrite {
  hash: Buffer;
  loc: string;
  section: string;
  shardId: string | null;
  lastmod: string;
  lastmodGiven: boolean;
  changefreq: string | null;
  priority: number | null;
  images: unknown;
  videos: unknown;
  news: unknown;
  newsUntil: Date | null;
  contentHash: Buffer;
  fragment: string;
  fragmentSize: number;
  nsMask: number;
  /** Needs a shard from the planner (new, revived, or moved to another section). */
  needsShard: boolean;
  /** The shard it leaves and the bytes it held there, when it had one. */
  previous: { shardId: string; size: number; leaves: boolean } | null;
}

export class UrlIngestService {
  constructor(
    private readonly pool: Pool,
    private readonly onChange: (siteId: string) => Promise<void>,
    private readonly limits: ShardLimits = DEFAULT_SHARD_LIMITS,
  ) {}

  async upsert(site: IngestSite, entries: readonly unknown[], now = new Date()): Promise<UpsertResult> {
    const errors: EntryError[] = [];
    const warnings: EntryError[] = [];
    const byLoc = new Map<string, PreparedEntry>();
    entries.forEach((entry, index) => {
      const prepared = this.prepare(site, entry, index, errors, warnings, now);
      // The same loc twice in one batch: the later entry wins, as two requests would.
      if (prepared) byLoc.set(prepared.url.loc, prepared);
    });
    const valid = [...byLoc.values()];
    const upserted = entries.length - new Set(errors.map((error) => error.index)).size;
    if (valid.length === 0) return { upserted, changed: 0, errors, warnings };

    const changed = await this.inTransaction(site.id, async (db) => {
      const affectedKeys = await this.applyClusterChanges(db, site.id, valid);
      return this.writeUrls(db, site, valid, affectedKeys, now);
    });
    if (changed > 0) await this.onChange(site.id);
    return { upserted, changed, errors, warnings };
  }

  /** Soft-deletes URLs by loc; their shards become dirty and their cluster peers drop them. */
  async delete(site: IngestSite, locs: readonly string[], now = new Date()): Promise<{ deleted: number; notFound: string[] }> {
    const hashes = [...new Set(locs)].map(locHash);
    const result = await this.inTransaction(site.id, async (db) => {
      const { rows } = await db.query<{ id: string; loc: string; shard_id: string | null; fragment_size: number }>(
        `UPDATE urls SET deleted_at = $3, updated_at = $3
          WHERE site_id = $1 AND loc_hash = ANY($2::bytea[]) AND deleted_at IS NULL
          RETURNING id, loc, shard_id, fragment_size`,
        [site.id, hashes, now],
      );
      const shardDeltas = new Map<string, ShardDelta>();
      for (const row of rows) if (row.shard_id) addDelta(shardDeltas, row.shard_id, -1, -row.fragment_size);
      await this.applyShardDeltas(db, shardDeltas);
      // A deleted page must not stay listed as an alternate of its translations.
      const previousKeys = await this.removeMemberships(db, site.id, rows.map((row) => locHash(row.loc)));
      const peersChanged = await this.writeUrls(db, site, [], previousKeys, now);
      return { deleted: rows.length, found: new Set(rows.map((row) => row.loc)), changed: rows.length + peersChanged };
    });
    if (result.changed > 0) await this.onChange(site.id);
    return { deleted: result.deleted, notFound: [...new Set(locs)].filter((loc) => !result.found.has(loc)) };
  }

  /**
   * Moves articles that aged out of the news window to the default section and re-renders them
   * without their news block. Run on a schedule; returns how many URLs changed.
   */
  async expireNews(site: IngestSite, now = new Date()): Promise<number> {
    const changed = await this.inTransaction(site.id, async (db) => {
      const { rows } = await db.query<ExistingRow>(
        `SELECT loc_hash, loc, lastmod, lastmod_given, changefreq, priority, images, videos, news FROM urls
          WHERE site_id = $1 AND news_until <= $2 AND deleted_at IS NULL`,
        [site.id, now],
      );
      const entries: PreparedEntry[] = rows.map((row, index) => ({
        index,
        hash: row.loc_hash,
        url: storedUrl(row),
        section: '',
        clientLastmod: row.lastmod_given ? (row.lastmod ?? undefined) : undefined,
        cluster: { action: 'keep' },
      }));
      return entries.length > 0 ? this.writeUrls(db, site, entries, [], now) : 0;
    });
    if (changed > 0) await this.onChange(site.id);
    return changed;
  }

  private prepare(site: IngestSite, entry: unknown, index: number, errors: EntryError[], warnings: EntryError[], now: Date): PreparedEntry | undefined {
    const rawLoc = isRecord(entry) && typeof entry.loc === 'string' ? entry.loc : undefined;
    const fail = (field: string, code: string, message: string) => {
      errors.push({ index, ...(rawLoc === undefined ? {} : { loc: rawLoc }), field, code, message });
      return undefined;
    };
    if (!isRecord(entry)) return fail('', 'INVALID_TYPE', 'a URL entry must be an object');
    // `hreflang` (the URL's own language in its cluster) is ours, not the protocol's.
    const { hreflang: rawOwn, ...protocolFields } = entry;
    const result = normalizeUrlEntry(protocolFields, { origin: `${site.scheme}://${site.hostname}` });
    if (!result.ok) {
      for (const violation of result.errors) fail(violation.field, violation.code, violation.message);
      return undefined;
    }
    for (const warning of result.warnings) warnings.push({ index, loc: result.url.loc, ...warning });
    const section = result.section ?? '';
    if (section !== '' && (!SECTION_PATTERN.test(section) || RESERVED_SECTIONS.has(section))) {
      return fail('section', 'INVALID_SECTION', 'section must be 1-40 lowercase letters, digits or dashes, and not a reserved name (sitemap, news, index)');
    }
    let ownHreflang: string | undefined;
    if (rawOwn !== undefined) {
      ownHreflang = typeof rawOwn === 'string' ? normalizeHreflang(rawOwn) : undefined;
      if (!ownHreflang) return fail('hreflang', 'INVALID_HREFLANG', 'hreflang must be an ISO 639-1 language, optionally with an ISO 3166-1 region, or x-default');
    }
    const { alternates, ...url } = result.url;
    let cluster: PreparedEntry['cluster'] = { action: 'keep' };
    if (Array.isArray(entry.alternates)) {
      if ((alternates ?? []).length === 0) cluster = { action: 'leave' };
      else {
        const declared = declareCluster(url.loc, ownHreflang, alternates ?? []);
        if (!declared.ok) return fail(declared.field, declared.code, declared.message);
        cluster = { action: 'join', cluster: declared.cluster };
      }
    }
    return {
      index,
      hash: locHash(url.loc),
      url: {
        ...url,
        ...(url.changefreq === undefined && site.defaultChangefreq ? { changefreq: site.defaultChangefreq as SitemapUrl['changefreq'] } : {}),
        ...(url.priority === undefined && site.defaultPriority !== null ? { priority: site.defaultPriority } : {}),
      },
      section: isFreshNews(url.news, now) ? NEWS_SECTION : section,
      clientLastmod: url.lastmod,
      cluster,
    };
  }

  /** Writes declared clusters; returns the keys of every cluster whose membership changed. */
  private async applyClusterChanges(db: PoolClient, siteId: string, entries: PreparedEntry[]): Promise<Buffer[]> {
    const members = new Map<string, { key: Buffer; hash: Buffer; link: AlternateLink }>();
    const leaving: Buffer[] = [];
    for (const entry of entries) {
      if (entry.cluster.action === 'leave') leaving.push(entry.hash);
      if (entry.cluster.action !== 'join') continue;
      const { key, members: links } = entry.cluster.cluster;
      for (const link of links) {
        const hash = locHash(link.href);
        members.set(`${hash.toString('hex')} ${link.hreflang}`, { key, hash, link });
      }
    }
    if (members.size === 0 && leaving.length === 0) return [];
    const touched = [...leaving, ...[...members.values()].map((member) => member.hash)];
    const previousKeys = await this.removeMemberships(db, siteId, touched);
    const rows = [...members.values()];
    if (rows.length > 0) {
      await db.query(
        `INSERT INTO alternates (site_id, cluster_key, href_hash, href, hreflang)
         SELECT $1, * FROM unnest($2::bytea[], $3::bytea[], $4::text[], $5::text[])`,
        [siteId, rows.map((r) => r.key), rows.map((r) => r.hash), rows.map((r) => r.link.href), rows.map((r) => r.link.hreflang)],
      );
    }
    return uniqueBuffers([...previousKeys, ...rows.map((r) => r.key)]);
  }

  private async removeMemberships(db: PoolClient, siteId: string, hrefHashes: Buffer[]): Promise<Buffer[]> {
    if (hrefHashes.length === 0) return [];
    const { rows } = await db.query<{ cluster_key: Buffer }>(
      `DELETE FROM alternates WHERE site_id = $1 AND href_hash = ANY($2::bytea[]) RETURNING cluster_key`,
      [siteId, hrefHashes],
    );
    return uniqueBuffers(rows.map((row) => row.cluster_key));
  }

  /**
   * Renders and writes the batch's URLs and the existing URLs of the affected clusters whose
   * content changed. Returns how many URLs changed.
   */
  private async writeUrls(db: PoolClient, site: IngestSite, entries: PreparedEntry[], affectedKeys: Buffer[], now: Date): Promise<number> {
    const clusters = await this.loadClusters(db, site.id, entries.map((entry) => entry.hash), affectedKeys);
    const batchHashes = new Set(entries.map((entry) => entry.hash.toString('hex')));
    const peerHashes = [...clusters.byHref.keys()].filter((hex) => !batchHashes.has(hex)).map((hex) => Buffer.from(hex, 'hex'));
    const existing = await this.loadExisting(db, site.id, [...entries.map((entry) => entry.hash), ...peerHashes]);
    const nowLastmod = platformLastmod(now);
    const writes: RowWrite[] = [];

    for (const entry of entries) {
      const hex = entry.hash.toString('hex');
      const row = existing.get(hex);
      const alternates = clusters.linksOf(hex);
      const content: UrlContent = { ...entry.url, section: entry.section, lastmod: entry.clientLastmod, alternates };
      const hash = contentHash(content);
      if (row && !row.deleted && row.section === entry.section && row.content_hash.equals(hash)) continue;
      const lastmod = entry.clientLastmod ?? nowLastmod;
      writes.push(this.rowWrite(entry.hash, { ...entry.url, lastmod, ...(alternates ? { alternates } : {}) }, entry.section, hash, entry.clientLastmod !== undefined, row, now));
    }
    for (const hex of peerHashes.map((hash) => hash.toString('hex'))) {
      const row = existing.get(hex);
      if (!row || row.deleted) continue;
      const alternates = clusters.linksOf(hex);
      const stored = storedUrl(row);
      const content: UrlContent = { ...stored, section: row.section, lastmod: row.lastmod_given ? (row.lastmod ?? undefined) : undefined, alternates };
      const hash = contentHash(content);
      if (row.content_hash.equals(hash)) continue;
      const lastmod = row.lastmod_given && row.lastmod ? row.lastmod : nowLastmod;
      writes.push(this.rowWrite(row.loc_hash, { ...stored, lastmod, ...(alternates ? { alternates } : {}) }, row.section, hash, row.lastmod_given, row, now));
    }
    if (writes.length === 0) return 0;
    const deltas = await this.assignShards(db, site.id, writes);
    await this.upsertRows(db, site.id, writes, now);
    await this.applyShardDeltas(db, deltas);
    await this.splitOversized(db, site.id, [...deltas.keys()]);
    return writes.length;
  }

  private rowWrite(hash: Buffer, url: SitemapUrl & { lastmod: string }, section: string, content: Buffer, lastmodGiven: boolean, row: ExistingRow | undefined, now: Date): RowWrite {
    // The news block is written only while the article is fresh; the data itself is kept.
    const { news, ...withoutNews } = url;
    const written: SitemapUrl = isFreshNews(news, now) ? url : withoutNews;
    const fragment = renderUrlFragment(written);
    const live = row !== undefined && !row.deleted && row.shard_id !== null;
    const moves = Boolean(live && row.section !== section);
    return {
      hash,
      loc: url.loc,
      section,
      shardId: live && !moves ? row.shard_id : null,
      lastmod: url.lastmod,
      lastmodGiven,
      changefreq: url.changefreq ?? null,
      priority: url.priority ?? null,
      images: url.images ?? null,
      videos: url.videos ?? null,
      news: news ?? null,
      newsUntil: written.news ? newsUntil(news) : null,
      contentHash: content,
      fragment,
      fragmentSize: Buffer.byteLength(fragment),
      nsMask: namespacesOf(written),
      needsShard: !live || moves,
      previous: live ? { shardId: row.shard_id as string, size: row.fragment_size, leaves: moves } : null,
    };
  }

  private async loadClusters(db: PoolClient, siteId: string, batchHashes: Buffer[], affectedKeys: Buffer[]) {
    const { rows } = await db.query<{ cluster_key: Buffer; href_hash: Buffer; href: string; hreflang: string }>(
      `SELECT cluster_key, href_hash, href, hreflang FROM alternates
        WHERE site_id = $1 AND cluster_key IN (
          SELECT cluster_key FROM alternates WHERE site_id = $1 AND href_hash = ANY($2::bytea[])
          UNION SELECT unnest($3::bytea[]))`,
      [siteId, batchHashes, affectedKeys],
    );
    const byKey = new Map<string, AlternateLink[]>();
    const byHref = new Map<string, string>();
    for (const row of rows) {
      const key = row.cluster_key.toString('hex');
      byKey.set(key, [...(byKey.get(key) ?? []), { hreflang: row.hreflang, href: row.href }]);
      byHref.set(row.href_hash.toString('hex'), key);
    }
    return {
      byHref,
      /** A URL's links: its cluster's members in canonical order; none for a cluster of one. */
      linksOf(hrefHex: string): AlternateLink[] | undefined {
        const key = byHref.get(hrefHex);
        const links = key ? byKey.get(key) : undefined;
        return links && links.length > 1 ? clusterOf(links).members : undefined;
      },
    };
  }

  private async loadExisting(db: PoolClient, siteId: string, hashes: Buffer[]): Promise<Map<string, ExistingRow>> {
    const { rows } = await db.query<ExistingRow>(
      `SELECT id, loc_hash, loc, section, shard_id, fragment_size, deleted_at IS NOT NULL AS deleted, content_hash,
              lastmod, lastmod_given, changefreq, priority, images, videos, news
         FROM urls WHERE site_id = $1 AND loc_hash = ANY($2::bytea[])`,
      [siteId, hashes],
    );
    return new Map(rows.map((row) => [row.loc_hash.toString('hex'), row]));
  }

  /** Plans shards for rows that need one and returns the per-shard count and byte changes. */
  private async assignShards(db: PoolClient, siteId: string, writes: RowWrite[]): Promise<Map<string, ShardDelta>> {
    const deltas = new Map<string, ShardDelta>();
    for (const write of writes) {
      if (!write.previous) continue;
      if (write.previous.leaves) addDelta(deltas, write.previous.shardId, -1, -write.previous.size);
      else addDelta(deltas, write.previous.shardId, 0, write.fragmentSize - write.previous.size);
    }
    const placing = writes.filter((write) => write.needsShard);
    if (placing.length === 0) return deltas;
    const sections = [...new Set(placing.map((write) => write.section))];
    const { rows } = await db.query<{ id: string; section: string; ordinal: number; url_count: number; byte_size: number }>(
      `SELECT DISTINCT ON (section) id, section, ordinal, url_count, byte_size FROM shards
        WHERE site_id = $1 AND section = ANY($2::text[]) ORDER BY section, ordinal DESC`,
      [siteId, sections],
    );
    const last: ShardFill[] = rows.map((row) => ({ id: BigInt(row.id), section: row.section, ordinal: row.ordinal, urlCount: row.url_count, byteSize: row.byte_size }));
    const plan = planNewUrls(last, placing.map((write) => ({ section: write.section, size: write.fragmentSize })), (section) =>
      section === NEWS_SECTION ? { ...this.limits, maxUrls: Math.min(this.limits.maxUrls, MAX_NEWS_URLS_PER_FILE) } : this.limits,
    );
    const created = plan.shards.filter((shard) => shard.id === null);
    if (created.length > 0) {
      const inserted = await db.query<{ id: string; section: string; ordinal: number }>(
        `INSERT INTO shards (site_id, section, ordinal, url_count, byte_size, dirty)
         SELECT $1, * , 0, 0, true FROM unnest($2::text[], $3::int[]) RETURNING id, section, ordinal`,
        [siteId, created.map((shard) => shard.section), created.map((shard) => shard.ordinal)],
      );
      const ids = new Map(inserted.rows.map((row) => [`${row.section}/${row.ordinal}`, BigInt(row.id)]));
      for (const shard of created) shard.id = ids.get(`${shard.section}/${shard.ordinal}`) ?? null;
    }
    placing.forEach((write, position) => {
      const shard = plan.shards[plan.assignments[position] as number] as ShardFill;
      write.shardId = String(shard.id);
      addDelta(deltas, write.shardId, 1, write.fragmentSize);
    });
    return deltas;
  }

  private async upsertRows(db: PoolClient, siteId: string, writes: RowWrite[], now: Date): Promise<void> {
    const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
    await db.query(
      `INSERT INTO urls (site_id, loc_hash, loc, section, shard_id, lastmod, lastmod_at, lastmod_given, changefreq, priority,
                         images, videos, news, content_hash, fragment, fragment_size, ns_mask, news_until, created_at, updated_at)
       SELECT $1, h, l, s, sh, lm, lma, lmg, cf, pr, im::jsonb, vi::jsonb, nw::jsonb, ch, fr, fs, ns, nu, $18, $18
         FROM unnest($2::bytea[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::timestamptz[], $8::bool[], $9::text[],
                     $10::real[], $11::text[], $12::text[], $13::text[], $14::bytea[], $15::text[], $16::int[], $17::int[], $19::timestamptz[])
              AS t(h, l, s, sh, lm, lma, lmg, cf, pr, im, vi, nw, ch, fr, fs, ns, nu)
       ON CONFLICT (site_id, loc_hash) DO UPDATE SET
         loc = EXCLUDED.loc, section = EXCLUDED.section, shard_id = EXCLUDED.shard_id, lastmod = EXCLUDED.lastmod,
         lastmod_at = EXCLUDED.lastmod_at, lastmod_given = EXCLUDED.lastmod_given, changefreq = EXCLUDED.changefreq,
         priority = EXCLUDED.priority, images = EXCLUDED.images, videos = EXCLUDED.videos, news = EXCLUDED.news,
         content_hash = EXCLUDED.content_hash, fragment = EXCLUDED.fragment, fragment_size = EXCLUDED.fragment_size,
         ns_mask = EXCLUDED.ns_mask, news_until = EXCLUDED.news_until, updated_at = EXCLUDED.updated_at, deleted_at = NULL`,
      [
        siteId,
        writes.map((w) => w.hash),
        writes.map((w) => w.loc),
        writes.map((w) => w.section),
        writes.map((w) => w.shardId),
        writes.map((w) => w.lastmod),
        writes.map((w) => lastmodInstant(w.lastmod)),
        writes.map((w) => w.lastmodGiven),
        writes.map((w) => w.changefreq),
        writes.map((w) => w.priority),
        writes.map((w) => json(w.images)),
        writes.map((w) => json(w.videos)),
        writes.map((w) => json(w.news)),
        writes.map((w) => w.contentHash),
        writes.map((w) => w.fragment),
        writes.map((w) => w.fragmentSize),
        writes.map((w) => w.nsMask),
        now,
        writes.map((w) => w.newsUntil),
      ],
    );
  }

  /** Counts, sizes, and the dirty mark: a bumped change_seq tells a running build it is stale. */
  private async applyShardDeltas(db: PoolClient, deltas: Map<string, ShardDelta>): Promise<void> {
    if (deltas.size === 0) return;
    const entries = [...deltas.entries()];
    await db.query(
      `UPDATE shards s SET url_count = s.url_count + d.c, byte_size = s.byte_size + d.b, dirty = true, change_seq = s.change_seq + 1
         FROM unnest($1::bigint[], $2::int[], $3::int[]) AS d(id, c, b) WHERE s.id = d.id`,
      [entries.map(([id]) => id), entries.map(([, d]) => d.count), entries.map(([, d]) => d.bytes)],
    );
  }

  /**
   * New URLs only go where there is room, but an updated URL can grow its shard past 50 MiB.
   * Such a shard keeps its head (and its file name) and its tail moves to a new last shard of
   * the section; both are dirty. Repeats until every part fits.
   */
  private async splitOversized(db: PoolClient, siteId: string, shardIds: string[]): Promise<void> {
    let pending = shardIds;
    while (pending.length > 0) {
      const { rows } = await db.query<{ id: string; section: string }>(
        `SELECT id, section FROM shards WHERE id = ANY($1::bigint[]) AND (byte_size > $2 OR url_count > $3)`,
        [pending, this.limits.maxBytes, this.limits.maxUrls],
      );
      pending = [];
      for (const shard of rows) {
        const cut = await db.query<{ id: string | null }>(
          `SELECT min(id) AS id FROM (
             SELECT id, sum(fragment_size) OVER (ORDER BY id) AS bytes, row_number() OVER (ORDER BY id) AS n
               FROM urls WHERE shard_id = $1 AND deleted_at IS NULL) AS running
            WHERE bytes > $2 OR n > $3`,
          [shard.id, this.limits.maxBytes, this.limits.maxUrls],
        );
        const cutId = cut.rows[0]?.id;
        if (!cutId) continue;
        const created = await db.query<{ id: string }>(
          `INSERT INTO shards (site_id, section, ordinal, dirty)
           SELECT $1, $2, coalesce(max(ordinal), 0) + 1, true FROM shards WHERE site_id = $1 AND section = $2 RETURNING id`,
          [siteId, shard.section],
        );
        const target = created.rows[0]?.id as string;
        await db.query(`UPDATE urls SET shard_id = $2 WHERE shard_id = $1 AND id >= $3`, [shard.id, target, cutId]);
        await db.query(
          `UPDATE shards s SET url_count = t.n, byte_size = t.bytes, dirty = true, change_seq = s.change_seq + 1
             FROM (SELECT sh.id, count(u.id)::int AS n, coalesce(sum(u.fragment_size), 0)::int AS bytes
                     FROM shards sh LEFT JOIN urls u ON u.shard_id = sh.id AND u.deleted_at IS NULL
                    WHERE sh.id = ANY($1::bigint[]) GROUP BY sh.id) AS t
            WHERE s.id = t.id`,
          [[shard.id, target]],
        );
        pending.push(target);
      }
    }
  }

  /** One writer per site at a time: shard planning reads then extends the last shard. */
  private async inTransaction<T>(siteId: string, work: (db: PoolClient) => Promise<T>): Promise<T> {
    const db = await this.pool.connect();
    try {
      await db.query('BEGIN');
      await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`site-urls:${siteId}`]);
      const result = await work(db);
      await db.query('COMMIT');
      return result;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      db.release();
    }
  }
}

interface ShardDelta {
  count: number;
  bytes: number;
}

function addDelta(deltas: Map<string, ShardDelta>, shardId: string, count: number, bytes: number): void {
  const delta = deltas.get(shardId) ?? { count: 0, bytes: 0 };
  delta.count += count;
  delta.bytes += bytes;
  deltas.set(shardId, delta);
}

function storedUrl(row: ExistingRow): Omit<SitemapUrl, 'alternates' | 'lastmod'> {
  return {
    loc: row.loc,
    ...(row.changefreq ? { changefreq: row.changefreq as SitemapUrl['changefreq'] } : {}),
    ...(row.priority !== null ? { priority: row.priority } : {}),
    ...(row.images ? { images: row.images } : {}),
    ...(row.videos ? { videos: row.videos } : {}),
    ...(row.news ? { news: row.news } : {}),
  };
}

function uniqueBuffers(buffers: Buffer[]): Buffer[] {
  return [...new Map(buffers.map((buffer) => [buffer.toString('hex'), buffer])).values()];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
