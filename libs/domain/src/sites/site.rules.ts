import { domainToASCII } from 'node:url';
import { invalid } from '../domain.errors';

export type Scheme = 'http' | 'https';

export interface HostnameOptions {
  /**
   * Accept names that can never be public (`localhost`, `*.localhost`, `*.test`, `*.local`,
   * `*.internal`, IPv4 literals…): development mode only (SITE_VERIFICATION=off), since no proof of
   * ownership could ever be published for them.
   */
  allowPrivate: boolean;
}

/**
 * A site is one host, in the one form every comparison uses: lowercase, IDNs in punycode, no
 * trailing dot, no port, path or credentials, at least one dot unless it is `localhost`.
 */
export function normalizeHostname(input: string, options: HostnameOptions = { allowPrivate: false }): string {
  const raw = input.trim();
  let host: string;
  try {
    const url = new URL(`http://${raw}`);
    if (url.port || url.username || url.password || url.pathname !== '/' || url.search || url.hash)
      throw new Error('extra parts');
    // A port the URL parser drops because it is the default (`a.com:80`) is a port all the same.
    if (/:\d*$/.test(raw)) throw new Error('port');
    host = url.hostname;
  } catch {
    throw invalid('INVALID_HOSTNAME', `hostname "${raw}" is not a bare host name`, [
      { field: 'hostname', message: 'expected a host name such as shop.example.com, without scheme, port or path' },
    ]);
  }
  // `example.com.` is the same name as `example.com`; IDNs compare in their ASCII form.
  host = domainToASCII(host.replace(/\.$/, ''));
  const ipv4 = /^\d+(\.\d+){3}$/.test(host);
  const labels = host.split('.');
  const validLabels = labels.every((label) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(label));
  const dotted = labels.length >= 2 || host === 'localhost';
  if (!host || !validLabels || !dotted || host.length > 253) {
    throw invalid('INVALID_HOSTNAME', `hostname "${raw}" is not a valid DNS name`, [
      { field: 'hostname', message: 'expected a DNS name such as shop.example.com' },
    ]);
  }
  if (!options.allowPrivate && (ipv4 || !isAnnounceableHost(host))) {
    throw notPublic(raw, ipv4 ? 'an IP address' : 'a name that never resolves on the public internet');
  }
  return host;
}

function notPublic(raw: string, what: string) {
  return invalid('HOSTNAME_NOT_PUBLIC', `hostname "${raw}" is ${what}: its ownership cannot be proven`, [
    {
      field: 'hostname',
      message:
        'expected a public DNS name; localhost, *.localhost, *.test, *.local, *.internal, *.lan, *.corp (and other private suffixes) and IP addresses are for development only',
    },
  ]);
}

export function originOf(site: { scheme: string; hostname: string }): string {
  return `${site.scheme}://${site.hostname}`;
}

/**
 * Names that never resolve on the public internet: special-use names (RFC 6761, RFC 6762, RFC
 * 9476's .alt, .internal), reverse-lookup and other infrastructure under .arpa, and the suffixes
 * private networks use without delegation (ICANN's name-collision list: corp, home, lan,
 * localdomain), which no public DNS answers for.
 */
const PRIVATE_SUFFIXES = [
  'localhost',
  'test',
  'invalid',
  'example',
  'local',
  'internal',
  'arpa',
  'onion',
  'alt',
  'corp',
  'home',
  'lan',
  'localdomain',
  'intranet',
  'private',
];

/**
 * Whether a search engine could ever verify this host: IndexNow submissions for a demo or
 * test host (demo.localhost) would only be refused, so they are not sent.
 */
export function isAnnounceableHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (/^\d+(\.\d+){3}$/.test(host) || host.includes(':')) return false;
  return !PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}
