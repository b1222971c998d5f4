import { invalid } from '../domain.errors';

export type Scheme = 'http' | 'https';

/**
 * A site is one host: lowercase, IDNs in punycode, no port, path or credentials, at least one
 * dot unless it is `localhost` or ends in `.localhost` (handy for demos and tests).
 */
export function normalizeHostname(input: string): string {
  const raw = input.trim();
  let host: string;
  try {
    const url = new URL(`http://${raw}`);
    if (url.port || url.username || url.password || url.pathname !== '/' || url.search || url.hash) throw new Error('extra parts');
    host = url.hostname;
  } catch {
    throw invalid('INVALID_HOSTNAME', `hostname "${raw}" is not a bare host name`, [{ field: 'hostname', message: 'expected a host name such as shop.example.com, without scheme, port or path' }]);
  }
  const labels = host.split('.');
  const validLabels = labels.every((label) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(label));
  const dotted = labels.length >= 2 || host === 'localhost';
  if (!validLabels || !dotted || host.length > 253 || /^\d+(\.\d+){3}$/.test(host)) {
    throw invalid('INVALID_HOSTNAME', `hostname "${raw}" is not a valid DNS name`, [{ field: 'hostname', message: 'expected a DNS name such as shop.example.com' }]);
  }
  return host;
}

export function originOf(site: { scheme: string; hostname: string }): string {
  return `${site.scheme}://${site.hostname}`;
}

/** Names that never resolve on the public internet (RFC 6761, RFC 6762, IP literals). */
const PRIVATE_SUFFIXES = ['localhost', 'test', 'invalid', 'local', 'internal', 'home.arpa'];

/**
 * Whether a search engine could ever verify this host: IndexNow submissions for a demo or
 * test host (demo.localhost) would only be refused, so they are not sent.
 */
export function isAnnounceableHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (/^\d+(\.\d+){3}$/.test(host) || host.includes(':')) return false;
  return !PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}
