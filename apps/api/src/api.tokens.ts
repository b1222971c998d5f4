export const CONFIG = Symbol('CONFIG');
export const PRISMA = Symbol('PRISMA');
export const PG_POOL = Symbol('PG_POOL');
export const REDIS = Symbol('REDIS');
export const BUILD_PRODUCER = Symbol('BUILD_PRODUCER');
