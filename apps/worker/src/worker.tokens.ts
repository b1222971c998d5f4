// Injection tokens for what the worker wires by hand (clients and plain domain classes).
export const CONFIG = Symbol('CONFIG');
export const PRISMA = Symbol('PRISMA');
export const PG_POOL = Symbol('PG_POOL');
export const REDIS = Symbol('REDIS');
export const BLOB_STORE = Symbol('BLOB_STORE');
export const FLOW_PRODUCER = Symbol('FLOW_PRODUCER');
export const BUILD_PRODUCER = Symbol('BUILD_PRODUCER');
export const URL_INGEST = Symbol('URL_INGEST');
export const WEBHOOK_REPOSITORY = Symbol('WEBHOOK_REPOSITORY');
export const WEBHOOK_PRODUCER = Symbol('WEBHOOK_PRODUCER');
/** Where site.verified / site.verification_lost go (a SiteEventsPort); by default nowhere. */
export const SITE_EVENTS = Symbol('SITE_EVENTS');
export const MAINTENANCE_QUEUE = Symbol('MAINTENANCE_QUEUE');
export const RECONCILED_QUEUES = Symbol('RECONCILED_QUEUES');
/** `(siteId) => Promise<void>`: tells the public servers a site's manifest changed. */
export const ANNOUNCE_MANIFEST = Symbol('ANNOUNCE_MANIFEST');
/** `(siteId, buildId) => Promise<void>`: what follows a publish (IndexNow, the build.published webhook). */
export const AFTER_PUBLISH = Symbol('AFTER_PUBLISH');

export type AnnounceManifest = (siteId: string) => Promise<void>;
export type AfterPublish = (siteId: string, buildId: string) => Promise<void>;
