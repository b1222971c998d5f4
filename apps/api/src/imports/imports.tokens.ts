export const URL_IMPORTS = Symbol('URL_IMPORTS');
export const IMPORT_QUEUE = Symbol('IMPORT_QUEUE');
