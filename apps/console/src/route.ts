// Hash routes (#/sites/<id>/builds): the API serves index.html for /console/ only, and a hash
// route needs no server-side fallback.
import { useEffect, useState } from 'react';

export type Route = { page: 'sites' } | { page: 'webhooks' } | { page: 'site'; siteId: string; tab: SiteTab };

export const SITE_TABS = ['overview', 'builds', 'shards', 'urls', 'exclusions', 'import', 'settings'] as const;
export type SiteTab = (typeof SITE_TABS)[number];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'webhooks') return { page: 'webhooks' };
  if (parts[0] === 'sites' && parts[1]) {
    const tab = (SITE_TABS as readonly string[]).includes(parts[2] ?? '') ? (parts[2] as SiteTab) : 'overview';
    return { page: 'site', siteId: parts[1], tab };
  }
  return { page: 'sites' };
}

export function hrefOf(route: Route): string {
  if (route.page === 'webhooks') return '#/webhooks';
  if (route.page === 'site') return `#/sites/${encodeURIComponent(route.siteId)}/${route.tab}`;
  return '#/sites';
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
