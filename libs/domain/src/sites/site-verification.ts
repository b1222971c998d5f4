// Hostname ownership: what a check's outcome does to a site's verification, as a plain function
// of the state, the outcome and the clock. The worker runs the checks (DNS TXT, HTTP file) and the
// repository writes the transition under the hostname's lock; the rules live here, once.

/** `taken`: another tenant verified the hostname first; the sweep no longer checks it. */
export type VerificationStatus = 'pending' | 'verified' | 'taken';
export const VERIFICATION_STATUSES: readonly VerificationStatus[] = ['pending', 'verified', 'taken'];

/** Where the owner publishes the site's token. */
export const CHALLENGE_LABEL = '_sitemaps-challenge';
export const VERIFICATION_FILE_PATH = '/.well-known/sitemaps-verification.txt';

export const challengeRecordName = (hostname: string) => `${CHALLENGE_LABEL}.${hostname}`;
export const verificationFileUrl = (scheme: string, hostname: string) =>
  `${scheme}://${hostname}${VERIFICATION_FILE_PATH}`;

export interface VerificationTiming {
  /** First re-check after a failed one; doubles with each failure in a row, up to `recheckMs`. */
  retryMs: number;
  /** How often a verified site's proof is checked again (daily by default). */
  recheckMs: number;
  /** How long a verified site's proof may be missing before the site loses verification. */
  graceMs: number;
}

export interface VerificationState {
  status: VerificationStatus;
  failures: number;
  failingSince: Date | null;
  verifiedAt: Date | null;
}

export type CheckOutcome = { proven: true; method: 'dns' | 'http' } | { proven: false; code: string; message: string };

export interface VerificationTransition extends VerificationState {
  checkedAt: Date;
  dueAt: Date | null;
  errorCode: string | null;
  error: string | null;
  /** The event the change is, if it is one the owner hears about. */
  event: 'site.verified' | 'site.verification_lost' | null;
}

/** The wait before the next check after `failures` failed ones in a row. */
export function retryDelay(failures: number, timing: VerificationTiming): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  return Math.min(timing.retryMs * 2 ** exponent, timing.recheckMs);
}

/**
 * The state after a check. A `taken` site is judged as pending: whoever asks for a check on it
 * has already found the hostname free again (see SiteVerifier).
 */
export function afterCheck(
  state: VerificationState,
  outcome: CheckOutcome,
  now: Date,
  timing: VerificationTiming,
): VerificationTransition {
  const later = (ms: number) => new Date(now.getTime() + ms);
  if (outcome.proven) {
    const already = state.status === 'verified';
    return {
      status: 'verified',
      failures: 0,
      failingSince: null,
      verifiedAt: already ? (state.verifiedAt ?? now) : now,
      checkedAt: now,
      dueAt: later(timing.recheckMs),
      errorCode: null,
      error: null,
      event: already ? null : 'site.verified',
    };
  }
  const failures = state.failures + 1;
  if (state.status === 'verified') {
    const failingSince = state.failingSince ?? now;
    if (now.getTime() - failingSince.getTime() >= timing.graceMs) {
      return {
        status: 'pending',
        failures: 1,
        failingSince: null,
        verifiedAt: null,
        checkedAt: now,
        dueAt: later(retryDelay(1, timing)),
        errorCode: 'VERIFICATION_LOST',
        error: `the proof has been missing since ${failingSince.toISOString()}, longer than the grace period: ${outcome.message}`,
        event: 'site.verification_lost',
      };
    }
    // Still verified within the grace period; checked again sooner than daily.
    return {
      ...state,
      failures,
      failingSince,
      checkedAt: now,
      dueAt: later(retryDelay(failures, timing)),
      errorCode: outcome.code,
      error: outcome.message,
      event: null,
    };
  }
  return {
    status: 'pending',
    failures,
    failingSince: null,
    verifiedAt: null,
    checkedAt: now,
    dueAt: later(retryDelay(failures, timing)),
    errorCode: outcome.code,
    error: outcome.message,
    event: null,
  };
}

/** The status and message of a claim that lost the hostname to another tenant's verified site. */
export const HOSTNAME_VERIFIED_ELSEWHERE = {
  code: 'HOSTNAME_VERIFIED_ELSEWHERE',
  message:
    'another account has verified this hostname; if it is yours, publish the proof and ask for a check once their claim is gone',
} as const;

/**
 * What the platform tells others when a site's verification changes (webhooks plug in here). The
 * worker calls it after the change has committed; the default does nothing.
 */
export interface SiteEvent {
  type: 'site.verified' | 'site.verification_lost';
  siteId: string;
  tenantId: string;
  hostname: string;
  at: Date;
  /** Why verification was lost; null for `site.verified`. */
  reason: string | null;
}

export interface SiteEventsPort {
  publish(event: SiteEvent): Promise<void>;
}

export const NO_SITE_EVENTS: SiteEventsPort = { publish: async () => undefined };
