export const URL_IMPORTS = Symbol('URL_IMPORTS');
export const IMPORT_QUEUE = Symbol('IMPORT_QUEUE');
export const IMPORT_PG_POOL = Symbol('IMPORT_PG_POOL');
