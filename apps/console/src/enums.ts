// The lists the console's forms offer, from the libraries that define them (one source): each
// imported from its own file, not through a library's index, which also holds Node code
// (node:crypto, streams) the browser bundle must not take in. These files import nothing of
// Node; this project's tsconfig has no Node types, so `tsc -p apps/console` fails if one starts to.
export { CRAWLERS, type Crawler } from '@sitemaps/domain/src/crawls/crawlers';
export { ROLES, SCOPES, type Role, type Scope } from '@sitemaps/domain/src/people/person.rules';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@sitemaps/domain/src/webhooks/webhook-event-types';
export { CHANGEFREQS, type Changefreq } from '@sitemaps/sitemap-xml/src/sitemap-xml.types';
