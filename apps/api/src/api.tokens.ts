// Injection tokens for what only the api wires (the shared ones are in @sitemaps/core).
export const API_LIMITS = Symbol('API_LIMITS');
/** Queues the removal of deleted sites' files (SiteFilesProducer). */
export const SITE_FILES_PRODUCER = Symbol('SITE_FILES_PRODUCER');
export const VERIFICATION_PRODUCER = Symbol('VERIFICATION_PRODUCER');
export const RATE_LIMITER = Symbol('RATE_LIMITER');
export const TENANT_RATE_LIMITER = Symbol('TENANT_RATE_LIMITER');
export const AUTH_FAILURE_LIMITER = Symbol('AUTH_FAILURE_LIMITER');
/** The read replica's Prisma client and pg pool (DATABASE_READ_URL), or null without one. */
export const READ_REPLICA = Symbol('READ_REPLICA');
