// What the public server reads on every request, kept in process memory: a site with its current
// manifest per hostname, and file bytes per blob key. A publish announces the site id on the
// deployment's manifest channel and every process drops that site at once; blob bytes are content-addressed, so
// cached bytes never go stale, only unused. Conditional requests and robots.txt need only the
// manifest, so once cached they never reach Postgres. While Postgres cannot be reached, a site
// whose manifest was read keeps being served from it past its age (stale-if-error): a crawler
// gets the last published set rather than a 503, and never a 404.
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Cluster, Redis } from 'ioredis';
import type { Pool } from 'pg';
import {
  formatLsn,
  isDatabaseUnavailable,
  parseLsn,
  primaryWalPosition,
  replayedWalPosition,
  type ManifestRepository,
} from '@sitemaps/data';
import type { BlobStore, ManifestFile } from '@sitemaps/storage';

/**
 * The channel of one deployment's announcements, named by its QUEUE_PREFIX: deployments (and
 * parallel test runs) that share a Redis never drop, or wait on, each other's sites.
 */
export function manifestChannel(queuePrefix: string): string {
  return `${queuePrefix}:manifest`;
}

/** Where announcements go: a Redis connection and the deployment's channel. */
export interface ManifestAnnouncements {
  redis: Pick<Redis | Cluster, 'publish'>;
  channel: string;
}

/**
 * The worker calls this after each manifest switch has committed; the API after it changes what a
 * site serves without a publish (hostname, robots.txt rules, cache max-age, deletion).
 */
export async function publishManifestChanged(to: ManifestAnnouncements, siteId: string, lsn?: string): Promise<void> {
  await to.redis.publish(to.channel, lsn ? `${siteId} ${lsn}` : siteId);
}

/**
 * Announces a change that has committed, with the primary's WAL position now (at or past that
 * commit): a public process reading a replica switches only once the replica has replayed it.
 */
export async function announceManifestChange(to: ManifestAnnouncements, primary: Pool, siteId: string): Promise<void> {
  await publishManifestChanged(to, siteId, formatLsn(await primaryWalPosition(primary)));
}

/** The position a streaming replica has replayed up to (`pg_last_wal_replay_lsn()`), from its pool. */
export function replayPosition(replica: Pool): () => Promise<bigint | null> {
  return () => replayedWalPosition(replica);
}

export interface SiteInfo {
  id: string;
  hostname: string;
  scheme: string;
  /** What the public server needs of the site's settings. */
  settings: {
    /** The site's own robots.txt rules, or null for allow-all; the Sitemap: line is appended. */
    robotsTxt: string | null;
    /** Seconds, for Cache-Control. */
    cacheMaxAge: number;
    /** Served at `/<key>.txt` so IndexNow can verify ownership. */
    indexNowKey: string;
    /** Whether the text sitemaps are served (the manifest may still list them until the next publish). */
    textSitemap: boolean;
    /** Whether the site's XML files name the XSL stylesheet (so an index made here does too). */
    xslStylesheet: boolean;
  };
}

export interface PublishedFile extends ManifestFile {
  /** When these bytes were first stored: the file's Last-Modified. */
  storedAt: Date;
}

export interface PublishedManifest {
  version: number;
  publishedAt: Date;
  /** Served path (no leading slash) -> file. A Map, so no request path can reach Object.prototype. */
  files: ReadonlyMap<string, PublishedFile>;
  /** A path the site published before (no leading slash) -> the path of the same file now: answered with 301. */
  redirects: ReadonlyMap<string, string>;
}

export interface SiteSnapshot {
  site: SiteInfo;
  /** Null until the site's first publish. */
  manifest: PublishedManifest | null;
}

export type FileVariant = 'gzip' | 'identity';

export interface ManifestReaderOptions {
  /**
   * Reload a cached site after this long even without a message: the safety net for messages lost
   * while Redis was unreachable. Keep it well below the blob grace period.
   */
  maxAgeMs?: number;
  /** How long an unknown hostname is remembered, so random Host headers cost one query each. */
  unknownHostTtlMs?: number;
  maxSites?: number;
  /** Bytes of file content kept in memory (gzip and decompressed variants). */
  maxCacheBytes?: number;
  /**
   * Set when the reader reads a streaming replica (DATABASE_READ_URL): the position it has
   * replayed. An announcement then takes effect once the replica has replayed its LSN; until
   * then the site keeps its cached, complete manifest.
   */
  replayedLsn?: () => Promise<bigint | null>;
  /** How often a waiting announcement checks the replica's position. */
  replayPollMs?: number;
  /**
   * How long after a site was last read from Postgres it may still be served while Postgres
   * cannot be reached (PUBLIC_STALE_IF_ERROR_S); 0: never, the request fails (503).
   */
  staleIfErrorMs?: number;
  /** While a site is served stale, how often one of its requests tries Postgres again, in the background. */
  staleRetryMs?: number;
  /** Told when serving stale starts (Postgres unreachable) and ends (a site read again), for the log. */
  onStaleChange?: (change: StaleChange) => void;
}

export type StaleChange =
  | { serving: true; hostname: string; version: number | null; readAgoMs: number }
  | { serving: false; answers: number; forMs: number };

export class BlobMissingError extends Error {
  readonly code = 'BLOB_MISSING';
  constructor(siteId: string, sha256: string) {
    super(`blob ${sha256} of site ${siteId} is listed in the manifest but not stored`);
    this.name = 'BlobMissingError';
  }
}

interface Loaded {
  snapshot: SiteSnapshot | null;
  /** When it was read from Postgres (epoch ms): how long it may still be served stale counts from here. */
  at: number;
}

type LoadedSite = Loaded & { snapshot: SiteSnapshot };

interface SiteEntry {
  snapshot: Promise<SiteSnapshot | null>;
  /** Known once loaded: the site's id, or null for a hostname no site has. */
  siteId?: string | null;
  /** The settled snapshot, once loaded, for callers that must not wait (`peek`). */
  loaded?: Loaded;
  expiresAt: number;
  /** While loading: the site's last snapshot, served instead if Postgres cannot be reached. */
  fallback?: LoadedSite;
  /** `loaded` is served past its age because Postgres could not be reached; `expiresAt` is the next retry. */
  stale?: boolean;
  /** A stale entry's retry, in flight. */
  retrying?: boolean;
}

const gunzipAsync = promisify(gunzip);

export class ManifestReader {
  private readonly sites = new Map<string, SiteEntry>();
  private readonly bytes: ByteCache;
  private readonly pendingBytes = new Map<string, Promise<Buffer>>();
  /** Per file of a cached manifest: its byte-cache keys (`bytesKey`). */
  private readonly keys = new WeakMap<ManifestFile, { siteId: string } & Partial<Record<FileVariant, string>>>();
  /** Bumped by every invalidation, so a load that raced one is used once but not cached. */
  private epoch = 0;
  private readonly maxAgeMs: number;
  private readonly unknownHostTtlMs: number;
  private readonly maxSites: number;
  /** Site id -> the highest announced LSN the replica has not replayed yet. */
  private readonly awaitingReplay = new Map<string, bigint>();
  private replayTimer: NodeJS.Timeout | undefined;
  private readonly replayedLsn: (() => Promise<bigint | null>) | undefined;
  private readonly replayPollMs: number;
  private readonly staleIfErrorMs: number;
  private readonly staleRetryMs: number;
  private readonly onStaleChange: ((change: StaleChange) => void) | undefined;
  /** The snapshots served stale now. */
  private readonly staleSnapshots = new Set<SiteSnapshot>();
  /** Their number, a plain field: the hot path's one test when nothing is stale (read-only outside). */
  staleSites = 0;
  /** Since when sites have been served stale with no successful read since; undefined: not so. */
  private staleSince: number | undefined;
  private staleAnswersAtStart = 0;
  /** Answers given from a stale snapshot (`countStaleAnswer`) since start: a metric. */
  staleAnswers = 0;

  constructor(
    private readonly manifests: Pick<ManifestRepository, 'served'>,
    private readonly blobs: BlobStore,
    options: ManifestReaderOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.unknownHostTtlMs = options.unknownHostTtlMs ?? 5_000;
    this.maxSites = options.maxSites ?? 10_000;
    this.bytes = new ByteCache(options.maxCacheBytes ?? 64 * 1024 * 1024);
    this.replayedLsn = options.replayedLsn;
    this.replayPollMs = options.replayPollMs ?? 50;
    this.staleIfErrorMs = options.staleIfErrorMs ?? 86_400_000;
    this.staleRetryMs = options.staleRetryMs ?? 5_000;
    this.onStaleChange = options.onStaleChange;
  }

  /**
   * Counts an answer given from `snapshot` if it is served stale. Callers test `staleSites`
   * first, so a process with nothing stale pays one comparison per answer.
   */
  countStaleAnswer(snapshot: SiteSnapshot | null): void {
    if (snapshot !== null && this.staleSnapshots.has(snapshot)) this.staleAnswers++;
  }

  /** Sites whose announced change the replica has not replayed yet. */
  get sitesAwaitingReplay(): number {
    return this.awaitingReplay.size;
  }

  /**
   * An announcement: `<site id>` or `<site id> <lsn>`. Reading the primary, or without an LSN,
   * the site is dropped at once; reading a replica, once the replica has replayed the LSN.
   */
  announced(message: string): void {
    const [siteId = '', lsn] = message.split(' ');
    if (!this.replayedLsn || !lsn) return this.invalidate(siteId);
    const position = parseLsn(lsn);
    if (position > (this.awaitingReplay.get(siteId) ?? -1n)) this.awaitingReplay.set(siteId, position);
    this.replayTimer ??= setTimeout(() => void this.checkReplay(), 0);
  }

  /** Stops waiting for the replica (the app is closing). */
  close(): void {
    clearTimeout(this.replayTimer);
    this.replayTimer = undefined;
    this.awaitingReplay.clear();
  }

  private async checkReplay(): Promise<void> {
    try {
      const replayed = await this.replayedLsn?.();
      // Null: not a replica (promoted, or pointed at a primary): nothing to wait for.
      const position = replayed ?? null;
      for (const [siteId, lsn] of this.awaitingReplay) {
        if (position === null || position >= lsn) {
          this.awaitingReplay.delete(siteId);
          this.invalidate(siteId);
        }
      }
    } catch {
      // The replica did not answer: keep serving what is cached, and ask again.
    } finally {
      this.replayTimer =
        this.awaitingReplay.size > 0 ? setTimeout(() => void this.checkReplay(), this.replayPollMs) : undefined;
      this.replayTimer?.unref();
    }
  }

  /**
   * The site served at `hostname` (lowercase, no port) with its manifest, or null. While Postgres
   * cannot be reached, the site's last snapshot (within `staleIfErrorMs` of its read) instead of
   * the failure; a hostname without one fails as the read did.
   */
  load(hostname: string): Promise<SiteSnapshot | null> {
    const cached = this.sites.get(hostname);
    const now = Date.now();
    if (cached && cached.expiresAt > now) return cached.snapshot;
    if (cached?.stale) return this.retryStale(hostname, cached, now);

    const epoch = this.epoch;
    const fallback = cached?.loaded ?? cached?.fallback;
    const entry: SiteEntry = { snapshot: Promise.resolve(null), expiresAt: Number.POSITIVE_INFINITY };
    if (fallback?.snapshot) entry.fallback = fallback as LoadedSite;
    entry.snapshot = this.fetchSnapshot(hostname).then(
      (snapshot) => {
        const at = Date.now();
        this.staleEnded(at);
        if (this.sites.get(hostname) !== entry) return snapshot;
        entry.siteId = snapshot?.site.id ?? null;
        entry.loaded = { snapshot, at };
        entry.fallback = undefined;
        // Raced an invalidation: used once, and kept only as the next load's fallback.
        entry.expiresAt = epoch !== this.epoch ? 0 : at + (snapshot ? this.maxAgeMs : this.unknownHostTtlMs);
        return snapshot;
      },
      (error: unknown) => {
        const current = this.sites.get(hostname) === entry;
        const stale = entry.fallback;
        if (!stale || !this.mayServeStale(stale, error)) {
          if (current) this.sites.delete(hostname);
          throw error;
        }
        if (current) this.serveStale(hostname, entry, stale);
        return stale.snapshot;
      },
    );
    this.remember(hostname, entry);
    return entry.snapshot;
  }

  /**
   * A stale site's request after its retry time: answered from the stale snapshot at once, while
   * one read of Postgres runs behind it (a read that hangs must not hold every crawler up).
   */
  private retryStale(hostname: string, entry: SiteEntry, now: number): Promise<SiteSnapshot | null> {
    const stale = entry.loaded as LoadedSite;
    if (now - stale.at > this.staleIfErrorMs) {
      // Too old to serve: read as if never cached (the request fails while Postgres is away).
      this.unstale(entry);
      this.sites.delete(hostname);
      return this.load(hostname);
    }
    entry.expiresAt = now + this.staleRetryMs;
    if (entry.retrying) return entry.snapshot;
    entry.retrying = true;
    const epoch = this.epoch;
    this.fetchSnapshot(hostname).then(
      (snapshot) => {
        const at = Date.now();
        this.staleEnded(at);
        if (this.sites.get(hostname) !== entry) return;
        this.unstale(entry);
        this.sites.set(hostname, {
          snapshot: Promise.resolve(snapshot),
          siteId: snapshot?.site.id ?? null,
          loaded: { snapshot, at },
          expiresAt: epoch !== this.epoch ? 0 : at + (snapshot ? this.maxAgeMs : this.unknownHostTtlMs),
        });
      },
      (error: unknown) => {
        entry.retrying = false;
        // Not an outage (a bug, a bad row): stop hiding it; the next request reads and fails as usual.
        if (!isDatabaseUnavailable(error) && this.sites.get(hostname) === entry) {
          this.unstale(entry);
          this.sites.delete(hostname);
        }
      },
    );
    return entry.snapshot;
  }

  private mayServeStale(fallback: LoadedSite, error: unknown): boolean {
    return Date.now() - fallback.at <= this.staleIfErrorMs && isDatabaseUnavailable(error);
  }

  private serveStale(hostname: string, entry: SiteEntry, stale: LoadedSite): void {
    const now = Date.now();
    entry.siteId = stale.snapshot.site.id;
    entry.loaded = stale;
    entry.fallback = undefined;
    entry.stale = true;
    entry.expiresAt = now + this.staleRetryMs;
    this.staleSnapshots.add(stale.snapshot);
    this.staleSites = this.staleSnapshots.size;
    if (this.staleSince !== undefined) return;
    this.staleSince = now;
    this.staleAnswersAtStart = this.staleAnswers;
    this.onStaleChange?.({
      serving: true,
      hostname,
      version: stale.snapshot.manifest?.version ?? null,
      readAgoMs: now - stale.at,
    });
  }

  private unstale(entry: SiteEntry): void {
    if (!entry.stale) return;
    entry.stale = false;
    if (entry.loaded?.snapshot) this.staleSnapshots.delete(entry.loaded.snapshot);
    this.staleSites = this.staleSnapshots.size;
  }

  /** A read of Postgres succeeded: told once per outage. Sites still stale refresh on their next request. */
  private staleEnded(at: number): void {
    if (this.staleSince === undefined) return;
    this.onStaleChange?.({
      serving: false,
      answers: this.staleAnswers - this.staleAnswersAtStart,
      forMs: at - this.staleSince,
    });
    this.staleSince = undefined;
  }

  /**
   * What `load` would resolve to, if it is in memory and fresh; undefined when it would have to
   * wait (not loaded, loading, expired or invalidated). Lets the hot path answer without a tick.
   */
  peek(hostname: string): SiteSnapshot | null | undefined {
    const cached = this.sites.get(hostname);
    return cached?.loaded && cached.expiresAt > Date.now() ? cached.loaded.snapshot : undefined;
  }

  /** The bytes `read` would resolve to, if they are in memory. */
  peekBytes(siteId: string, file: ManifestFile, variant: FileVariant): Buffer | undefined {
    return this.bytes.get(this.bytesKey(siteId, file, variant));
  }

  /**
   * The byte cache's key of a file's variant, made once per file as its manifest lists it: a key
   * made afresh per request was hashed afresh on every lookup (a quarter of a µs per 200 from
   * memory), where a string kept keeps its hash.
   */
  private bytesKey(siteId: string, file: ManifestFile, variant: FileVariant): string {
    let keys = this.keys.get(file);
    if (keys?.siteId !== siteId) this.keys.set(file, (keys = { siteId }));
    return (keys[variant] ??= `${siteId}/${file.sha256}/${variant}`);
  }

  /** The bytes of a manifest-listed file, as stored (gzip) or decompressed. */
  read(siteId: string, file: ManifestFile, variant: FileVariant): Promise<Buffer> {
    const key = this.bytesKey(siteId, file, variant);
    const cached = this.bytes.get(key);
    if (cached) return Promise.resolve(cached);
    let pending = this.pendingBytes.get(key);
    if (!pending) {
      pending = this.fetchBytes(siteId, file, variant)
        .then((body) => {
          this.bytes.set(key, body);
          return body;
        })
        .finally(() => this.pendingBytes.delete(key));
      this.pendingBytes.set(key, pending);
    }
    return pending;
  }

  /**
   * Forgets a site, and every unknown hostname: a new site's first publish lands here too. The
   * site's snapshot stays as its next load's fallback, should Postgres be unreachable then.
   */
  invalidate(siteId: string): void {
    this.epoch++;
    for (const [hostname, entry] of this.sites) {
      if (entry.siteId === siteId || entry.siteId === null) this.expire(hostname, entry);
    }
  }

  /** Forgets every site; each snapshot stays only as its next load's fallback, as in `invalidate`. */
  clear(): void {
    this.epoch++;
    for (const [hostname, entry] of this.sites) this.expire(hostname, entry);
  }

  private expire(hostname: string, entry: SiteEntry): void {
    if (!entry.loaded?.snapshot && !entry.fallback) return void this.sites.delete(hostname);
    this.unstale(entry);
    entry.expiresAt = 0;
  }

  /**
   * Subscribes `subscriber` (a connection of its own: Redis puts it in subscriber mode) to
   * publish announcements. Messages sent while it was disconnected are lost, so every
   * (re)connection starts from an empty cache. On a cluster, PUBLISH reaches every node and the
   * client subscribes on one; when that node goes, the client moves to another without a
   * `ready`, so any node leaving (or joining) the cluster's map starts from an empty cache too.
   */
  async listen(subscriber: Redis | Cluster, channel: string): Promise<void> {
    subscriber.on('message', (from: string, message: string) => {
      if (from === channel) this.announced(message);
    });
    subscriber.on('ready', () => this.clear());
    for (const event of ['-node', '+node']) subscriber.on(event, () => this.clear());
    await subscriber.subscribe(channel);
  }

  private remember(hostname: string, entry: SiteEntry): void {
    this.sites.delete(hostname);
    this.sites.set(hostname, entry);
    // Oldest first in Map order: drop the oldest loads when a flood of hostnames arrives.
    for (const [host, oldest] of this.sites) {
      if (this.sites.size <= this.maxSites) break;
      this.unstale(oldest);
      this.sites.delete(host);
    }
  }

  private async fetchSnapshot(hostname: string): Promise<SiteSnapshot | null> {
    const site = await this.manifests.served(hostname);
    if (!site) return null;
    const info: SiteInfo = {
      id: site.id,
      hostname: site.hostname,
      scheme: site.scheme,
      settings: {
        robotsTxt: site.robotsTxt,
        cacheMaxAge: site.cacheMaxAge,
        indexNowKey: site.indexNowKey,
        textSitemap: site.textSitemap,
        xslStylesheet: site.xslStylesheet,
      },
    };
    const { manifest } = site;
    if (!manifest) return { site: info, manifest: null };
    const files = new Map<string, PublishedFile>();
    for (const [path, file] of Object.entries(manifest.files)) {
      files.set(path, { ...file, storedAt: manifest.storedAt.get(file.sha256) ?? manifest.publishedAt });
    }
    return {
      site: info,
      manifest: {
        version: manifest.version,
        publishedAt: manifest.publishedAt,
        files,
        redirects: new Map(Object.entries(manifest.redirects)),
      },
    };
  }

  private async fetchBytes(siteId: string, file: ManifestFile, variant: FileVariant): Promise<Buffer> {
    if (variant === 'identity') return gunzipAsync(await this.read(siteId, file, 'gzip'));
    const body = await this.blobs.get(siteId, file.sha256);
    if (!body) throw new BlobMissingError(siteId, file.sha256);
    return body;
  }
}

/** Least-recently-used bytes, bounded by total size; a file too big to share the budget is not kept. */
class ByteCache {
  private readonly entries = new Map<string, Buffer>();
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Buffer): void {
    if (value.length > this.maxBytes / 4 || this.entries.has(key)) return;
    this.entries.set(key, value);
    this.size += value.length;
    for (const [oldest, bytes] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.size -= bytes.length;
    }
  }
}
