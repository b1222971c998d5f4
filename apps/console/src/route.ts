// Hash routes (#/sites/<id>/builds): the API serves index.html for /console/ only, and a hash
// route needs no server-side fallback.
import { useEffect, useState } from 'react';

export type Route =
  | { page: 'sites' }
  | { page: 'webhooks' }
  | { page: 'keys' }
  | { page: 'people' }
  | { page: 'operator' }
  | { page: 'site'; siteId: string; tab: SiteTab }
  /** Links in emails; shown signed in or not. */
  | { page: 'accept-invitation'; token: string }
  | { page: 'reset-password'; token: string }
  | { page: 'forgot-password' };

export const SITE_TABS = [
  'overview',
  'builds',
  'shards',
  'urls',
  'exclusions',
  'import',
  'crawls',
  'settings',
] as const;
export type SiteTab = (typeof SITE_TABS)[number];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'webhooks') return { page: 'webhooks' };
  if (parts[0] === 'keys') return { page: 'keys' };
  if (parts[0] === 'people') return { page: 'people' };
  if (parts[0] === 'operator') return { page: 'operator' };
  if (parts[0] === 'forgot-password') return { page: 'forgot-password' };
  if ((parts[0] === 'accept-invitation' || parts[0] === 'reset-password') && parts[1])
    return { page: parts[0], token: parts[1] };
  if (parts[0] === 'sites' && parts[1]) {
    const tab = (SITE_TABS as readonly string[]).includes(parts[2] ?? '') ? (parts[2] as SiteTab) : 'overview';
    return { page: 'site', siteId: parts[1], tab };
  }
  return { page: 'sites' };
}

export function hrefOf(route: Route): string {
  if (route.page === 'webhooks') return '#/webhooks';
  if (route.page === 'keys') return '#/keys';
  if (route.page === 'people') return '#/people';
  if (route.page === 'operator') return '#/operator';
  if (route.page === 'forgot-password') return '#/forgot-password';
  if (route.page === 'accept-invitation' || route.page === 'reset-password')
    return `#/${route.page}/${encodeURIComponent(route.token)}`;
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
