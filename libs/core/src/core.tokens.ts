// Injection tokens for what the api and the worker share, provided once by CoreModule. Classes
// (repositories, PlatformMetrics) are their own tokens; these name clients and functions.
export const CONFIG = Symbol('CONFIG');
export const PRISMA = Symbol('PRISMA');
export const PG_POOL = Symbol('PG_POOL');
export const REDIS = Symbol('REDIS');
/** Every repository over the primary (Repositories), as one object. */
export const REPOSITORIES = Symbol('REPOSITORIES');
/** Enqueues builds: explicit ones, and the debounced build after a change (BuildProducer). */
export const BUILD_PRODUCER = Symbol('BUILD_PRODUCER');
/** Writes URLs and their alternates, then asks for a build (UrlIngestService). */
export const URL_INGEST = Symbol('URL_INGEST');
/** Emits webhook events: a delivery row per endpoint, then a job per delivery (WebhookProducer). */
export const WEBHOOK_PRODUCER = Symbol('WEBHOOK_PRODUCER');
/** The maintenance queue (garbage collection, a deleted site's files, crawl events). */
export const MAINTENANCE_QUEUE = Symbol('MAINTENANCE_QUEUE');
/** Tells the public servers that a site changed (its manifest or its settings). */
export const ANNOUNCE_SITE_CHANGE = Symbol('ANNOUNCE_SITE_CHANGE');

export type AnnounceSiteChange = (siteId: string) => Promise<void>;
