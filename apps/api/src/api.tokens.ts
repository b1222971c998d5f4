export const CONFIG = Symbol('CONFIG');
export const PRISMA = Symbol('PRISMA');
export const PG_POOL = Symbol('PG_POOL');
export const REDIS = Symbol('REDIS');
export const BUILD_PRODUCER = Symbol('BUILD_PRODUCER');
export const URL_INGEST = Symbol('URL_INGEST');
export const API_LIMITS = Symbol('API_LIMITS');
export const RATE_LIMITER = Symbol('RATE_LIMITER');
