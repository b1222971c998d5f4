// Tenant quotas (tenants.max_sites, tenants.max_urls; null is unlimited). The rules are here once;
// the data lib holds the counters and the lock that makes a check and the write it allows atomic.
import { DomainError, type ErrorDetail } from '../domain.errors';

/** A tenant's URL quota at the moment its lock is held: the limit and the live URLs stored. */
export interface UrlQuotaState {
  max: number;
  stored: number;
}

/**
 * What a write does with entries past the quota: `refuse` the whole write (the REST and GraphQL
 * upserts: nothing is stored, the error names the entries past the limit), or `reject` only
 * those entries and store the rest (a bulk import reports them as rejected lines).
 */
export type QuotaMode = 'refuse' | 'reject';

/** The issue an entry past the URL quota gets, in the error details and in an import's rejections. */
export const URL_QUOTA_ISSUE = {
  code: 'QUOTA_URLS',
  field: 'loc',
  message: 'exceeds the tenant URL quota; this URL was not added',
} as const;

export interface QuotaAdmission<T> {
  accepted: T[];
  /** Entries that would add a URL past the quota, in the order given. */
  over: T[];
  /** How many of the accepted entries add a URL. */
  added: number;
}

/**
 * Admits entries in order while there is room: an entry that adds a URL takes one place, the
 * others (updates of live URLs) none. `quota` null: no limit.
 */
export function admitWithinUrlQuota<T>(
  entries: readonly T[],
  adds: (entry: T) => boolean,
  quota: UrlQuotaState | null,
): QuotaAdmission<T> {
  let room = quota === null ? Number.POSITIVE_INFINITY : quota.max - quota.stored;
  const accepted: T[] = [];
  const over: T[] = [];
  let added = 0;
  for (const entry of entries) {
    if (!adds(entry)) accepted.push(entry);
    else if (room > 0) {
      room -= 1;
      added += 1;
      accepted.push(entry);
    } else over.push(entry);
  }
  return { accepted, over, added };
}

/** The refusal of a whole write: 403 QUOTA_URLS, naming (by index) every entry past the limit. */
export function urlQuotaExceeded(quota: UrlQuotaState, adding: number, overIndexes: readonly number[]): DomainError {
  const indexes = [...overIndexes].sort((a, b) => a - b);
  const details: ErrorDetail[] = indexes.map((index) => ({ index, ...URL_QUOTA_ISSUE }));
  return new DomainError(
    'quota',
    URL_QUOTA_ISSUE.code,
    `tenant quota of ${quota.max} URLs: ${quota.stored} stored, this batch adds ${adding}, ${indexes.length} too many; nothing was stored`,
    details,
  );
}

/** Whether one more site fits under tenants.max_sites; throws 403 QUOTA_SITES if not. */
export function assertSiteQuota(maxSites: number | null, sites: number): void {
  if (maxSites !== null && sites >= maxSites) {
    throw new DomainError('quota', 'QUOTA_SITES', `tenant quota of ${maxSites} sites reached`);
  }
}
