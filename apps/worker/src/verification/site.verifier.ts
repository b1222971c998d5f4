// One check of one site's hostname: skip what need not be checked, run the proofs, write the
// transition (the rules are libs/domain's afterCheck), then tell the public servers and the
// owner. Idempotent: a doubled or retried job re-reads the state and checks again.
import { Logger } from '@nestjs/common';
import type { VerificationConfig } from '@sitemaps/config';
import type { SiteOwnershipRepository } from '@sitemaps/data';
import { afterCheck, type SiteEventsPort } from '@sitemaps/domain';
import type { HostnameProofs } from './hostname-proofs';

export type CheckResult = 'gone' | 'suspended' | 'pending' | 'verified' | 'taken';

export class SiteVerifier {
  private readonly logger = new Logger('verification');

  constructor(
    private readonly ownership: SiteOwnershipRepository,
    private readonly proofs: HostnameProofs,
    private readonly timing: VerificationConfig,
    private readonly announce: (siteId: string) => Promise<void>,
    private readonly events: SiteEventsPort,
  ) {}

  async verify(siteId: string, now = () => new Date()): Promise<CheckResult> {
    const state = await this.ownership.state(siteId);
    if (!state) return 'gone';
    if (state.tenantSuspended) return 'suspended';
    // Another tenant holds the hostname: no need to look at DNS, this claim cannot win.
    if (state.status !== 'verified' && (await this.ownership.verifiedHolder(state.hostname, siteId))) {
      // Also for a claim already taken: the check asked for is answered, and none is scheduled.
      await this.ownership.markTaken(siteId, now());
      return 'taken';
    }
    const outcome = await this.proofs.check({ hostname: state.hostname, scheme: state.scheme, token: state.token });
    const judged = state.status === 'taken' ? { ...state, status: 'pending' as const } : state;
    const transition = afterCheck(judged, outcome, now(), this.timing);
    const recorded = await this.ownership.record(siteId, state.hostname, transition);
    if (recorded.status !== state.status) {
      this.logger.log(
        `site ${siteId} (${state.hostname}): ${state.status} -> ${recorded.status}${transition.error ? ` (${transition.error})` : ''}`,
      );
      // The public servers serve verified sites only: they drop what they cached of this one.
      await this.announce(siteId);
    }
    if (transition.event && recorded.status === transition.status) {
      await this.events.publish({
        type: transition.event,
        siteId,
        tenantId: state.tenantId,
        hostname: state.hostname,
        at: transition.checkedAt,
        reason: transition.event === 'site.verification_lost' ? transition.error : null,
      });
    }
    return recorded.status;
  }
}
