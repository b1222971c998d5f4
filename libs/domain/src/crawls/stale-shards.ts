// sitemap.stale: a shard whose bytes changed more than a site's `staleAfterDays` ago and that no
// verified crawler has read since. One event per version of a shard (its path and when its bytes
// changed): a notice remembers the version an event was sent for, so a sweep that finds the same
// shard still unread sends nothing, and a later change of it may send again.
import type { ManifestFiles } from '../builds/manifest-merge';
import { invalid } from '../domain.errors';
import type { NewWebhookEvent } from '../webhooks/webhook-event';
import { webhookEventId } from '../webhooks/webhook-event';

export const MIN_STALE_AFTER_DAYS = 1;
export const MAX_STALE_AFTER_DAYS = 365;
const DAY_MS = 86_400_000;

/** A site's `staleAfterDays` setting: null (off) or whole days in 1-365, else INVALID_STALE_AFTER_DAYS naming the field. */
export function validateStaleAfterDays(value: unknown): number | null {
  if (value === null) return null;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < MIN_STALE_AFTER_DAYS ||
    value > MAX_STALE_AFTER_DAYS
  )
    throw invalid('INVALID_STALE_AFTER_DAYS', 'invalid staleAfterDays', [
      {
        field: 'staleAfterDays',
        message: `a whole number of days, ${MIN_STALE_AFTER_DAYS}-${MAX_STALE_AFTER_DAYS}, or null (off)`,
      },
    ]);
  return value;
}

/** A verified crawler's last read (2xx or 304) of one of the site's files. */
export interface LastRead {
  path: string;
  lastAt: Date;
}

/** The shard version sitemap.stale was sent for. */
export interface StaleNotice {
  path: string;
  modifiedAt: Date;
}

export interface StaleShard {
  path: string;
  modifiedAt: Date;
  /** The last verified read of any version of the path; null: never read. */
  lastReadAt: Date | null;
}

/**
 * The shards of one site to send sitemap.stale for now: changed at least `staleAfterDays` before
 * `now`, not read by any verified crawler since, and not already announced at this version. Files
 * without `modifiedAt` (published before it was recorded) are never stale: their age is unknown.
 */
export function staleShards(input: {
  files: ManifestFiles;
  reads: LastRead[];
  notices: StaleNotice[];
  staleAfterDays: number;
  now: Date;
}): StaleShard[] {
  const lastRead = new Map<string, Date>();
  for (const read of input.reads) {
    const seen = lastRead.get(read.path);
    if (!seen || read.lastAt > seen) lastRead.set(read.path, read.lastAt);
  }
  const announced = new Map(input.notices.map((notice) => [notice.path, notice.modifiedAt.getTime()]));
  const cutoff = input.now.getTime() - input.staleAfterDays * DAY_MS;
  const stale: StaleShard[] = [];
  for (const [path, file] of Object.entries(input.files)) {
    if (file.kind !== 'shard' || !file.modifiedAt) continue;
    const modifiedAt = new Date(file.modifiedAt);
    if (Number.isNaN(modifiedAt.getTime()) || modifiedAt.getTime() > cutoff) continue;
    const read = lastRead.get(path) ?? null;
    if (read && read >= modifiedAt) continue;
    if (announced.get(path) === modifiedAt.getTime()) continue;
    stale.push({ path, modifiedAt, lastReadAt: read });
  }
  return stale.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
}

/** sitemap.stale for one version of a shard: the same version gives the same event id. */
export function staleShardEvent(siteId: string, shard: StaleShard & { staleAfterDays: number }): NewWebhookEvent {
  return {
    id: webhookEventId('sitemap.stale', siteId, shard.path, String(shard.modifiedAt.getTime())),
    type: 'sitemap.stale',
    data: {
      siteId,
      path: shard.path,
      modifiedAt: shard.modifiedAt.toISOString(),
      lastReadAt: shard.lastReadAt?.toISOString() ?? null,
      staleAfterDays: shard.staleAfterDays,
    },
  };
}
