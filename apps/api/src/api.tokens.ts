export const CONFIG = Symbol('CONFIG');
export const PRISMA = Symbol('PRISMA');
export const PG_POOL = Symbol('PG_POOL');
export const REDIS = Symbol('REDIS');
export const BUILD_PRODUCER = Symbol('BUILD_PRODUCER');
/** Queues the removal of deleted sites' files (SiteFilesProducer). */
export const SITE_FILES_PRODUCER = Symbol('SITE_FILES_PRODUCER');
export const URL_INGEST = Symbol('URL_INGEST');
export const API_LIMITS = Symbol('API_LIMITS');
export const RATE_LIMITER = Symbol('RATE_LIMITER');
export const AUTH_FAILURE_LIMITER = Symbol('AUTH_FAILURE_LIMITER');
export const WEBHOOK_REPOSITORY = Symbol('WEBHOOK_REPOSITORY');
export const WEBHOOK_PRODUCER = Symbol('WEBHOOK_PRODUCER');
export const TENANT_RATE_LIMITER = Symbol('TENANT_RATE_LIMITER');
export const VERIFICATION_PRODUCER = Symbol('VERIFICATION_PRODUCER');
/** Every repository over the primary (Repositories), as one object. */
export const REPOSITORIES = Symbol('REPOSITORIES');
/** The read replica's Prisma client and pg pool (DATABASE_READ_URL), or null without one. */
export const READ_REPLICA = Symbol('READ_REPLICA');
/** Tells public servers that a site's settings changed (announceManifestChange on the primary's position). */
export const ANNOUNCE_SITE_CHANGE = Symbol('ANNOUNCE_SITE_CHANGE');
export type AnnounceSiteChange = (siteId: string) => Promise<void>;
