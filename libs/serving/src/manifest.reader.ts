// What the public server reads on every request, kept in process memory: a site with its current
// manifest per hostname, and file bytes per blob key. A publish announces the site id on the
// deployment's manifest channel and every process drops that site at once; blob bytes are content-addressed, so
// cached bytes never go stale, only unused. Conditional requests and robots.txt need only the
// manifest, so once cached they never reach Postgres.
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Cluster, Redis } from 'ioredis';
import type { Pool } from 'pg';
import { formatLsn, parseLsn, primaryWalPosition, replayedWalPosition, type ManifestRepository } from '@sitemaps/data';
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
}

export class BlobMissingError extends Error {
  readonly code = 'BLOB_MISSING';
  constructor(siteId: string, sha256: string) {
    super(`blob ${sha256} of site ${siteId} is listed in the manifest but not stored`);
    this.name = 'BlobMissingError';
  }
}

interface SiteEntry {
  snapshot: Promise<SiteSnapshot | null>;
  /** Known once loaded: the site's id, or null for a hostname no site has. */
  siteId?: string | null;
  /** The settled snapshot, once loaded, for callers that must not wait (`peek`). */
  loaded?: { snapshot: SiteSnapshot | null };
  expiresAt: number;
}

const gunzipAsync = promisify(gunzip);

export class ManifestReader {
  private readonly sites = new Map<string, SiteEntry>();
  private readonly bytes: ByteCache;
  private readonly pendingBytes = new Map<string, Promise<Buffer>>();
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

  /** The site served at `hostname` (lowercase, no port) with its manifest, or null. */
  load(hostname: string): Promise<SiteSnapshot | null> {
    const cached = this.sites.get(hostname);
    if (cached && cached.expiresAt > Date.now()) return cached.snapshot;

    const epoch = this.epoch;
    const entry: SiteEntry = { snapshot: this.fetchSnapshot(hostname), expiresAt: Number.POSITIVE_INFINITY };
    this.remember(hostname, entry);
    entry.snapshot.then(
      (snapshot) => {
        if (this.sites.get(hostname) !== entry) return;
        if (epoch !== this.epoch) return void this.sites.delete(hostname);
        entry.siteId = snapshot?.site.id ?? null;
        entry.loaded = { snapshot };
        entry.expiresAt = Date.now() + (snapshot ? this.maxAgeMs : this.unknownHostTtlMs);
      },
      () => {
        if (this.sites.get(hostname) === entry) this.sites.delete(hostname);
      },
    );
    return entry.snapshot;
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
    return this.bytes.get(`${siteId}/${file.sha256}/${variant}`);
  }

  /** The bytes of a manifest-listed file, as stored (gzip) or decompressed. */
  read(siteId: string, file: ManifestFile, variant: FileVariant): Promise<Buffer> {
    const key = `${siteId}/${file.sha256}/${variant}`;
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

  /** Forgets a site, and every unknown hostname: a new site's first publish lands here too. */
  invalidate(siteId: string): void {
    this.epoch++;
    for (const [hostname, entry] of this.sites) {
      if (entry.siteId === siteId || entry.siteId === null) this.sites.delete(hostname);
    }
  }

  clear(): void {
    this.epoch++;
    this.sites.clear();
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
    for (const host of this.sites.keys()) {
      if (this.sites.size <= this.maxSites) break;
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
