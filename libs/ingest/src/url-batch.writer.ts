// One batch of prepared entries into the database, inside the caller's transaction and under
// the caller's per-site lock: hreflang clusters, which URLs changed (content hash), fragments
// rendered for those only, shard placement, and the shards they touch marked dirty.
//
// A URL is one row, its hreflang links included (`urls.alternates`): clusters are worked out in
// memory (ClusterChanges) from the batch and the stored links of the pages it names, found by
// loc hash like any URL. Links for pages not stored yet wait in `pending_alternates`.
//
// Set-based throughout, so a batch costs a handful of round trips whatever its size: lookups use
// `= ANY(array)` (index probes), and rows go in with COPY, straight into `urls` for new rows (the
// lock guarantees no one else inserts them meanwhile) and through a temporary table for updates.
import type { PoolClient } from 'pg';
import {
  ClusterChanges,
  isFreshNews,
  lastmodInstant,
  linksJson,
  limitsForSection,
  newsUntil,
  planNewUrls,
  platformLastmod,
  sameLinks,
  type Links,
  type ShardFill,
  type QuotaMode,
  type ShardLimits,
  urlContentHash,
} from '@sitemaps/domain';
import { namespacesOf, renderUrlFragment, type SitemapUrl } from '@sitemaps/sitemap-xml';
import {
  copyRows,
  hashList,
  packHashes,
  QuotaService,
  type CopyType,
  type EncodedFields,
  type FieldArena,
} from '@sitemaps/data';
import { siteOrigin, type IngestSite, type PreparedEntry, type StagedRow } from './url-entry.preparer';

interface ExistingRow {
  id: string;
  loc_hash: Buffer;
  section: string;
  shard_id: string | null;
  fragment_size: number;
  deleted: boolean;
  content_hash: Buffer;
  alternates: Links | null;
}

/** A live URL outside the batch whose cluster changed: re-rendered from what is stored. */
interface PeerRow extends ExistingRow {
  loc: string;
  lastmod: string | null;
  lastmod_given: boolean;
  changefreq: string | null;
  priority: number | null;
  images: SitemapUrl['images'] | null;
  videos: SitemapUrl['videos'] | null;
  news: SitemapUrl['news'] | null;
}

/** What shard planning needs of any write. */
interface PlannedWrite {
  id: string | null;
  hash: Buffer;
  section: string;
  shardId: string | null;
  fragmentSize: number;
  /** Needs a shard from the planner (new, revived, or moved to another section). */
  needsShard: boolean;
  /** The shard it leaves and the bytes it held there, when it had one. */
  previous: { shardId: string; size: number; leaves: boolean } | null;
}

/** A new URL whose row was staged: every column encoded but shard_id. */
interface StagedWrite extends PlannedWrite {
  kind: 'staged';
  id: null;
  fields: EncodedFields;
}

/** A URL row to write: new (no id), or revived, moved or re-rendered (id). */
interface RowWrite extends PlannedWrite {
  kind: 'row';
  loc: string;
  lastmod: string;
  lastmodGiven: boolean;
  changefreq: string | null;
  priority: number | null;
  images: unknown;
  videos: unknown;
  news: unknown;
  /** The links' JSON (`linksJson`), the `alternates` column. */
  alternates: string | null;
  newsUntil: Date | null;
  contentHash: Buffer;
  fragment: string;
  nsMask: number;
}

type Write = RowWrite | StagedWrite;

/** A URL the caller deleted, with the links it had: its cluster's other pages drop it. */
export interface DepartedUrl {
  hash: Buffer;
  href: string;
  links: Links;
}

export interface WriteOptions {
  departed?: DepartedUrl[];
  /**
   * Entries past the tenant's URL quota: `refuse` the whole write (QUOTA_URLS, the default) or
   * `reject` only them (returned as `overQuota`).
   */
  quota?: QuotaMode;
}

export interface WriteResult {
  changed: number;
  /** URLs added as new rows. */
  inserted: number;
  /** Entries left out because they would have added a URL past the quota. */
  overQuota: PreparedEntry[];
}

interface ShardDelta {
  count: number;
  bytes: number;
}

/**
 * What a written URL row carries, new or updated; new rows add site and creation columns. The
 * shard comes last in both, so a staged row is every column but the last.
 */
const ROW_COLUMNS = {
  loc: 'text',
  section: 'text',
  lastmod: 'text',
  lastmod_at: 'timestamptz',
  lastmod_given: 'bool',
  changefreq: 'text',
  priority: 'float4',
  images: 'jsonb',
  videos: 'jsonb',
  news: 'jsonb',
  alternates: 'json',
  news_until: 'timestamptz',
  content_hash: 'bytea',
  fragment: 'text',
  fragment_size: 'int4',
  ns_mask: 'int4',
} as const satisfies Record<string, CopyType>;
const INSERT_COLUMNS = {
  site_id: 'uuid',
  loc_hash: 'bytea',
  ...ROW_COLUMNS,
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  shard_id: 'int8',
} as const;
const UPDATE_COLUMNS = { id: 'int8', ...ROW_COLUMNS, shard_id: 'int8' } as const;
const STAGED_TYPES = Object.values(INSERT_COLUMNS).slice(0, -1);

export class UrlBatchWriter {
  constructor(
    private readonly limits: ShardLimits,
    private readonly quota: QuotaService = new QuotaService(),
  ) {}

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
    now: Date,
    opts: WriteOptions = {},
  ): Promise<WriteResult> {
    const existing = await this.loadExisting(db, site.id, entries);
    const {
      accepted,
      over: overQuota,
      added,
    } = await this.quota.admitUrls(db, {
      siteId: site.id,
      entries,
      adds: (entry) => addsUrl(existing.get(entry.hex)),
      indexOf: (entry) => entry.index,
      mode: opts.quota ?? 'refuse',
    });
    const { clusters, peers } = await this.resolveClusters(db, site, accepted, existing, opts.departed ?? []);
    const nowLastmod = platformLastmod(now);
    const writes: Write[] = [];

    for (const entry of accepted) {
      const row = existing.get(entry.hex);
      let links = clusters.linksOf(entry.hex);
      if (entry.staged && row === undefined && sameLinks(entry.expected?.links, links)) {
        writes.push(stagedWrite(entry, entry.staged));
        continue;
      }
      let json: string | undefined;
      let hash: Buffer;
      if (entry.expected && sameLinks(entry.expected.links, links))
        ({ links, linksJson: json, contentHash: hash } = entry.expected);
      else {
        // Truthful lastmod: the hash covers everything written except a lastmod the platform sets.
        json = links && linksJson(links);
        hash = urlContentHash(entry.url, entry.section, entry.clientLastmod, json);
      }
      if (row && !row.deleted && row.section === entry.section && row.content_hash.equals(hash)) continue;
      const lastmod = entry.clientLastmod ?? nowLastmod;
      writes.push(
        rowWrite(
          entry.hash,
          { ...entry.url, lastmod, alternates: links },
          json,
          entry.section,
          hash,
          entry.clientLastmod !== undefined,
          row,
          now,
        ),
      );
    }
    for (const row of peers) {
      const links = clusters.linksOf(row.loc_hash.toString('hex'));
      if (sameLinks(row.alternates, links ?? null)) continue;
      const stored = storedUrl(row);
      const json = links && linksJson(links);
      const hash = urlContentHash(
        stored,
        row.section,
        row.lastmod_given ? (row.lastmod ?? undefined) : undefined,
        json,
      );
      const lastmod = row.lastmod_given && row.lastmod ? row.lastmod : nowLastmod;
      writes.push(
        rowWrite(
          row.loc_hash,
          { ...stored, lastmod, ...(links ? { alternates: links } : {}) },
          json,
          row.section,
          hash,
          row.lastmod_given,
          row,
          now,
        ),
      );
    }
    if (writes.length === 0) return { changed: 0, inserted: 0, overQuota };
    const deltas = await this.assignShards(db, site.id, writes);
    const inserted = await this.persist(db, site.id, writes, now);
    await this.quota.countUrls(db, site.id, added);
    await this.applyShardDeltas(db, deltas);
    await this.splitOversized(db, site.id, [...deltas.keys()]);
    return { changed: writes.length, inserted, overQuota };
  }

  /**
   * The row `entry` inserts if its URL turns out new and its hreflang cluster is the one it
   * declares (declaring none: that it has none), rendered and encoded now. A bulk import stages
   * while its previous batch is in Postgres, so that `write` only adds the shard; `write` does
   * the work itself when it turns out otherwise. `now` is the one `write` will get; `arena` must
   * not be cleared before that write has finished.
   */
  stage(siteId: string, entry: PreparedEntry, now: Date, arena: FieldArena): void {
    const { expected } = entry;
    const links = expected?.links;
    const hash = expected
      ? expected.contentHash
      : urlContentHash(entry.url, entry.section, entry.clientLastmod, undefined);
    const url = { ...entry.url, lastmod: entry.clientLastmod ?? platformLastmod(now), alternates: links };
    const row = rowWrite(
      entry.hash,
      url,
      expected?.linksJson,
      entry.section,
      hash,
      entry.clientLastmod !== undefined,
      undefined,
      now,
    );
    entry.staged = {
      fragmentSize: row.fragmentSize,
      fields: arena.encode(STAGED_TYPES, [siteId, row.hash, ...rowValues(row), now, now]),
    };
  }

  /**
   * Soft-deletes the site's live URLs that `where` (a condition on `urls`, parameters from $3)
   * selects: their shards shrink and become dirty, and their cluster peers drop them.
   */
  async softDelete(
    db: PoolClient,
    site: IngestSite,
    where: string,
    params: unknown[],
    now: Date,
  ): Promise<{ deleted: string[]; count: number; changed: number }> {
    await db.query(
      `CREATE TEMP TABLE IF NOT EXISTS ingest_deleted (loc_hash bytea, loc text, shard_id bigint, fragment_size int, alternates json) ON COMMIT DELETE ROWS`,
    );
    await db.query('TRUNCATE ingest_deleted');
    // A deleted row keeps its last content, links included; only live rows' links are read.
    const { rowCount } = await db.query(
      `WITH gone AS (
         UPDATE urls SET deleted_at = $2, updated_at = $2 WHERE site_id = $1 AND deleted_at IS NULL AND (${where})
         RETURNING loc_hash, loc, shard_id, fragment_size, alternates)
       INSERT INTO ingest_deleted SELECT * FROM gone`,
      [site.id, now, ...params],
    );
    const count = rowCount ?? 0;
    if (count === 0) return { deleted: [], count: 0, changed: 0 };
    await this.quota.countUrls(db, site.id, -count);
    const sums = await db.query<{ shard_id: string; n: number; bytes: number }>(
      `SELECT shard_id, count(*)::int AS n, sum(fragment_size)::int AS bytes FROM ingest_deleted WHERE shard_id IS NOT NULL GROUP BY shard_id`,
    );
    await this.applyShardDeltas(
      db,
      new Map(sums.rows.map((row) => [row.shard_id, { count: -row.n, bytes: -row.bytes }])),
    );
    // A deleted page must not stay listed as an alternate of its translations.
    const clustered = await db.query<{ loc_hash: Buffer; loc: string; alternates: Links }>(
      'SELECT loc_hash, loc, alternates FROM ingest_deleted WHERE alternates IS NOT NULL',
    );
    const departed = clustered.rows.map((row) => ({ hash: row.loc_hash, href: row.loc, links: row.alternates }));
    const { changed: peersChanged } =
      departed.length > 0 ? await this.write(db, site, [], now, { departed }) : { changed: 0 };
    const deleted =
      count <= 10_000
        ? (await db.query<{ loc: string }>('SELECT loc FROM ingest_deleted')).rows.map((row) => row.loc)
        : [];
    return { deleted, count, changed: count + peersChanged };
  }

  /**
   * The batch's clusters: declarations in order (later entries win), the stored links of every
   * page they name, then of the pages whose cluster lost members. Pages outside the batch come
   * back as `peers` (live rows, to re-render if their links changed); those not stored get their
   * pending links written or dropped here, and entries take over (and drop) theirs.
   */
  private async resolveClusters(
    db: PoolClient,
    site: IngestSite,
    entries: PreparedEntry[],
    existing: Map<string, ExistingRow>,
    departed: DepartedUrl[],
  ) {
    const clusters = new ClusterChanges(`${siteOrigin(site)}/`);
    const batch = new Set<string>();
    for (const entry of entries) {
      batch.add(entry.hex);
      if (entry.cluster.action === 'join') clusters.join(entry.cluster.cluster.members, entry);
      else if (entry.cluster.action === 'leave') clusters.leave(entry.hash, entry.hex, entry.url.loc);
    }
    const gone = new Set<string>();
    for (const url of departed) {
      const hex = url.hash.toString('hex');
      gone.add(hex);
      clusters.depart(url.hash, hex, url.href, url.links);
    }

    // What is stored: a live row's links, else the pending ones.
    const unstored: PreparedEntry[] = [];
    for (const entry of entries) {
      const row = existing.get(entry.hex);
      if (row && !row.deleted) clusters.setStored(entry.hex, row.alternates);
      else unstored.push(entry);
    }
    const outside = [...clusters.touched()].filter((claim) => !batch.has(claim.hex) && !gone.has(claim.hex));
    const peers = await this.loadPeers(
      db,
      site.id,
      outside.map((claim) => claim.hash),
    );
    for (const row of peers) clusters.setStored(row.loc_hash.toString('hex'), row.alternates);
    const live = new Set(peers.map((row) => row.loc_hash.toString('hex')));
    // Most sites have no pending links at all: one cheap question, asked once and only if there
    // is a page to look up, saves looking up every page. Only this write (it holds the site's
    // lock) adds any, and only after both lookups below.
    let anyPending: Promise<boolean> | undefined;
    const hasPending = () => (anyPending ??= this.siteHasPending(db, site.id));
    const pending = await this.loadPending(
      db,
      site.id,
      [...unstored, ...outside.filter((claim) => !live.has(claim.hex))],
      clusters,
      hasPending,
    );

    const remainders = [...clusters.remainders().values()].filter((page) => !batch.has(page.hex));
    if (remainders.length > 0) {
      const more = await this.loadPeers(
        db,
        site.id,
        remainders.map((page) => page.hash),
      );
      for (const row of more) {
        clusters.setStored(row.loc_hash.toString('hex'), row.alternates);
        live.add(row.loc_hash.toString('hex'));
        peers.push(row);
      }
      for (const [hex, links] of await this.loadPending(
        db,
        site.id,
        remainders.filter((page) => !live.has(page.hex)),
        clusters,
        hasPending,
      ))
        pending.set(hex, links);
    }

    // Pending links: pages of the site named by a cluster but not stored live.
    const set: { hash: Buffer; href: string; links: Links }[] = [];
    const drop: Buffer[] = entries.filter((entry) => pending.has(entry.hex)).map((entry) => entry.hash);
    for (const page of [...outside, ...remainders]) {
      if (live.has(page.hex)) continue;
      const links = clusters.linksOf(page.hex) ?? null;
      const before = pending.get(page.hex) ?? null;
      if (sameLinks(before, links)) continue;
      if (links) set.push({ hash: page.hash, href: page.href, links });
      else drop.push(page.hash);
    }
    if (drop.length > 0) {
      await db.query(`DELETE FROM pending_alternates WHERE site_id = $1 AND href_hash = ANY(${hashList(2)})`, [
        site.id,
        packHashes(drop),
      ]);
    }
    if (set.length > 0) {
      await db.query(
        `INSERT INTO pending_alternates (site_id, href_hash, href, links) SELECT $1, * FROM unnest($2::bytea[], $3::text[], $4::json[])
         ON CONFLICT (site_id, href_hash) DO UPDATE SET links = EXCLUDED.links`,
        [
          site.id,
          set.map((page) => page.hash),
          set.map((page) => page.href),
          set.map((page) => JSON.stringify(page.links)),
        ],
      );
    }
    return { clusters, peers };
  }

  private async siteHasPending(db: PoolClient, siteId: string): Promise<boolean> {
    const { rows } = await db.query<{ any: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM pending_alternates WHERE site_id = $1) AS any',
      [siteId],
    );
    return rows[0]?.any === true;
  }

  /** Pending links of pages not stored live; each becomes their stored links in `clusters`. */
  private async loadPending(
    db: PoolClient,
    siteId: string,
    pages: { hash: Buffer; hex: string }[],
    clusters: ClusterChanges,
    hasPending: () => Promise<boolean>,
  ): Promise<Map<string, Links>> {
    const found = new Map<string, Links>();
    if (pages.length === 0) return found;
    if (await hasPending()) {
      const { rows } = await db.query<{ href_hash: Buffer; links: Links }>(
        `SELECT href_hash, links FROM pending_alternates WHERE site_id = $1 AND href_hash = ANY(${hashList(2)})`,
        [siteId, packHashes(pages.map((page) => page.hash))],
      );
      for (const row of rows) found.set(row.href_hash.toString('hex'), row.links);
    }
    for (const page of pages) clusters.setStored(page.hex, found.get(page.hex) ?? null);
    return found;
  }

  private async loadExisting(
    db: PoolClient,
    siteId: string,
    entries: PreparedEntry[],
  ): Promise<Map<string, ExistingRow>> {
    if (entries.length === 0) return new Map();
    const { rows } = await db.query<ExistingRow>(
      `SELECT id, loc_hash, section, shard_id, fragment_size, deleted_at IS NOT NULL AS deleted, content_hash, alternates
         FROM urls WHERE site_id = $1 AND loc_hash = ANY(${hashList(2)})`,
      [siteId, packHashes(entries.map((entry) => entry.hash))],
    );
    return new Map(rows.map((row) => [row.loc_hash.toString('hex'), row]));
  }

  private async loadPeers(db: PoolClient, siteId: string, hashes: Buffer[]): Promise<PeerRow[]> {
    if (hashes.length === 0) return [];
    const { rows } = await db.query<PeerRow>(
      `SELECT id, loc_hash, loc, section, shard_id, fragment_size, false AS deleted, content_hash, alternates,
              lastmod, lastmod_given, changefreq, priority, images, videos, news
         FROM urls WHERE site_id = $1 AND loc_hash = ANY(${hashList(2)}) AND deleted_at IS NULL`,
      [siteId, packHashes(hashes)],
    );
    return rows;
  }

  /** Plans shards for rows that need one and returns the per-shard count and byte changes. */
  private async assignShards(db: PoolClient, siteId: string, writes: Write[]): Promise<Map<string, ShardDelta>> {
    const deltas = new Map<string, ShardDelta>();
    for (const write of writes) {
      if (!write.previous) continue;
      if (write.previous.leaves) addDelta(deltas, write.previous.shardId, -1, -write.previous.size);
      else addDelta(deltas, write.previous.shardId, 0, write.fragmentSize - write.previous.size);
    }
    const placing = writes.filter((write) => write.needsShard);
    if (placing.length === 0) return deltas;
    const sections = [...new Set(placing.map((write) => write.section))];
    const { rows } = await db.query<{
      id: string;
      section: string;
      ordinal: number;
      url_count: number;
      byte_size: number;
    }>(
      `SELECT DISTINCT ON (section) id, section, ordinal, url_count, byte_size FROM shards
        WHERE site_id = $1 AND section = ANY($2::text[]) ORDER BY section, ordinal DESC`,
      [siteId, sections],
    );
    const last: ShardFill[] = rows.map((row) => ({
      id: BigInt(row.id),
      section: row.section,
      ordinal: row.ordinal,
      urlCount: row.url_count,
      byteSize: row.byte_size,
    }));
    const plan = planNewUrls(
      last,
      placing.map((write) => ({ section: write.section, size: write.fragmentSize })),
      (section) => limitsForSection(section, this.limits),
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
    // One id string and one delta per shard, not per URL: a batch is thousands of URLs in a few shards.
    const ids = plan.shards.map((shard) => String(shard.id));
    const added = plan.shards.map(() => ({ count: 0, bytes: 0 }));
    placing.forEach((write, position) => {
      const index = plan.assignments[position] as number;
      write.shardId = ids[index] as string;
      const delta = added[index] as ShardDelta;
      delta.count += 1;
      delta.bytes += write.fragmentSize;
    });
    added.forEach((delta, index) => {
      if (delta.count > 0) addDelta(deltas, ids[index] as string, delta.count, delta.bytes);
    });
    return deltas;
  }

  /** New rows are copied straight into `urls`; existing ones are updated from a copy. Returns how many were new. */
  private async persist(db: PoolClient, siteId: string, writes: Write[], now: Date): Promise<number> {
    const inserts = writes.filter((write) => write.id === null);
    const updates = writes.filter((write): write is RowWrite => write.id !== null);
    if (inserts.length > 0) {
      await copyRows(db, {
        table: 'urls',
        columns: INSERT_COLUMNS,
        rows: inserts,
        toRow: (w) =>
          w.kind === 'staged'
            ? { encoded: w.fields, rest: [w.shardId] }
            : [siteId, w.hash, ...rowValues(w), now, now, w.shardId],
      });
    }
    if (updates.length === 0) return inserts.length;
    await db.query(
      `CREATE TEMP TABLE IF NOT EXISTS ingest_url_updates (
         id bigint, loc text, section text, shard_id bigint, lastmod text, lastmod_at timestamptz, lastmod_given boolean,
         changefreq text, priority real, images jsonb, videos jsonb, news jsonb, alternates json, news_until timestamptz,
         content_hash bytea, fragment text, fragment_size int, ns_mask int) ON COMMIT DELETE ROWS`,
    );
    await db.query('TRUNCATE ingest_url_updates');
    await copyRows(db, {
      table: 'ingest_url_updates',
      columns: UPDATE_COLUMNS,
      rows: updates,
      toRow: (w) => [w.id, ...rowValues(w), w.shardId],
    });
    await db.query(
      `UPDATE urls u SET loc = s.loc, section = s.section, shard_id = s.shard_id, lastmod = s.lastmod, lastmod_at = s.lastmod_at,
              lastmod_given = s.lastmod_given, changefreq = s.changefreq, priority = s.priority, images = s.images, videos = s.videos,
              news = s.news, alternates = s.alternates, news_until = s.news_until, content_hash = s.content_hash, fragment = s.fragment,
              fragment_size = s.fragment_size, ns_mask = s.ns_mask, updated_at = $1, deleted_at = NULL
         FROM ingest_url_updates s WHERE u.id = s.id`,
      [now],
    );
    return inserts.length;
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
}

function rowWrite(
  hash: Buffer,
  url: SitemapUrl & { lastmod: string },
  links: string | undefined,
  section: string,
  content: Buffer,
  lastmodGiven: boolean,
  row: ExistingRow | undefined,
  now: Date,
): RowWrite {
  // The news block is written only while the article is fresh; the data itself is kept.
  const news = url.news;
  const written: SitemapUrl = news === undefined || isFreshNews(news, now) ? url : withoutNews(url);
  const fragment = renderUrlFragment(written);
  const live = row !== undefined && !row.deleted && row.shard_id !== null;
  const moves = Boolean(live && row.section !== section);
  return {
    kind: 'row',
    id: row?.id ?? null,
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
    alternates: links ?? null,
    newsUntil: written.news ? newsUntil(news) : null,
    contentHash: content,
    fragment,
    fragmentSize: Buffer.byteLength(fragment),
    nsMask: namespacesOf(written),
    needsShard: !live || moves,
    previous: live ? { shardId: row.shard_id as string, size: row.fragment_size, leaves: moves } : null,
  };
}

export function storedUrl(
  row: Pick<PeerRow, 'loc' | 'changefreq' | 'priority' | 'images' | 'videos' | 'news'>,
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

/** Whether writing an entry adds a live URL: it is new, or revives a deleted one. */
function addsUrl(row: ExistingRow | undefined): boolean {
  return !row || row.deleted;
}

function withoutNews(url: SitemapUrl): SitemapUrl {
  const { news: _news, ...rest } = url;
  return rest;
}

function addDelta(deltas: Map<string, ShardDelta>, shardId: string, count: number, bytes: number): void {
  const delta = deltas.get(shardId) ?? { count: 0, bytes: 0 };
  delta.count += count;
  delta.bytes += bytes;
  deltas.set(shardId, delta);
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

/** In ROW_COLUMNS order. */
function rowValues(w: RowWrite) {
  return [
    w.loc,
    w.section,
    w.lastmod,
    lastmodInstant(w.lastmod),
    w.lastmodGiven,
    w.changefreq,
    w.priority,
    json(w.images),
    json(w.videos),
    json(w.news),
    w.alternates,
    w.newsUntil,
    w.contentHash,
    w.fragment,
    w.fragmentSize,
    w.nsMask,
  ];
}

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
