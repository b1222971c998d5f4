export const URL_IMPORTS = Symbol('URL_IMPORTS');
export const SITEMAP_IMPORTER = Symbol('SITEMAP_IMPORTER');
