// Injection tokens for what only the worker wires (the shared ones are in @sitemaps/core).
export const BLOB_STORE = Symbol('BLOB_STORE');
export const FLOW_PRODUCER = Symbol('FLOW_PRODUCER');
/** Where site.verified / site.verification_lost go (a SiteEventsPort). */
export const SITE_EVENTS = Symbol('SITE_EVENTS');
/** The build and publish queues the reconciler inspects (ReconciledQueues). */
export const RECONCILED_QUEUES = Symbol('RECONCILED_QUEUES');
/** `(siteId, buildId) => Promise<void>`: what follows a publish (IndexNow, the build.published webhook). */
export const AFTER_PUBLISH = Symbol('AFTER_PUBLISH');

export type AfterPublish = (siteId: string, buildId: string) => Promise<void>;
