// @sitemaps/client: the typed client of the admin API, generated from its OpenAPI document.
export * from './client';
