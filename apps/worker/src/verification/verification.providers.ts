// What worker.module adds for hostname proof: the DNS and file proofs, the verifier that settles
// a claim, and site.verified / site.verification_lost delivered to the tenant's webhooks.
import type { Provider } from '@nestjs/common';
import type { AppConfig } from '@sitemaps/config';
import { ANNOUNCE_SITE_CHANGE, CONFIG, WEBHOOK_PRODUCER, type AnnounceSiteChange } from '@sitemaps/core';
import { SiteOwnershipRepository } from '@sitemaps/data';
import { siteVerificationEvent, type SiteEventsPort } from '@sitemaps/domain';
import type { WebhookProducer } from '@sitemaps/jobs';
import { SITE_EVENTS } from '../worker.tokens';
import { HostnameProofs } from './hostname-proofs';
import { SiteVerifier } from './site.verifier';
import { VerificationProcessors } from './verification.processors';

export const VERIFICATION_PROVIDERS: Provider[] = [
  {
    provide: SITE_EVENTS,
    inject: [WEBHOOK_PRODUCER],
    useFactory: (webhooks: WebhookProducer): SiteEventsPort => ({
      publish: async (event) => {
        await webhooks.emit({ siteId: event.siteId }, siteVerificationEvent(event.type, event, event.at, event.reason));
      },
    }),
  },
  {
    provide: HostnameProofs,
    inject: [CONFIG],
    useFactory: (config: AppConfig) => new HostnameProofs(config.verification),
  },
  {
    provide: SiteVerifier,
    inject: [CONFIG, SiteOwnershipRepository, HostnameProofs, ANNOUNCE_SITE_CHANGE, SITE_EVENTS],
    useFactory: (
      config: AppConfig,
      ownership: SiteOwnershipRepository,
      proofs: HostnameProofs,
      announce: AnnounceSiteChange,
      events: SiteEventsPort,
    ) => new SiteVerifier(ownership, proofs, config.verification, announce, events),
  },
  VerificationProcessors,
];
