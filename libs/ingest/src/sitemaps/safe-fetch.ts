// Fetching URLs a customer gave us, from inside the platform's network. Every connection's
// address is checked after DNS resolution, in the resolver hook the socket connects with (so a
// second lookup cannot answer differently), and again on every redirect hop; redirects are
// followed by hand and counted. Bodies come back as sent: the caller undoes their compression
// with decompressBounded, the one rule that also bounds uploads.
import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { isPublicAddress } from './address.policy';

export interface FetchPolicy {
  allowPrivateAddresses: boolean;
  maxRedirects: number;
  requestTimeoutMs: number;
  /** How host names resolve; default: the system's (dns.lookup). The addresses are checked either way. */
  resolve?: (hostname: string) => Promise<dns.LookupAddress[]>;
  userAgent?: string;
  /** Follow a redirect only to the same hostname (any http(s) scheme or port): a proof of a host is read from that host. */
  sameHostRedirects?: boolean;
}

/** Why a URL was not read: its code becomes the rejection's code. */
export class FetchRefusedError extends Error {
  constructor(
    readonly code:
      | 'ADDRESS_REFUSED'
      | 'UNSUPPORTED_SCHEME'
      | 'TOO_MANY_REDIRECTS'
      | 'REDIRECT_REFUSED'
      | 'HTTP_STATUS'
      | 'FETCH_FAILED'
      | 'TIMEOUT'
      | 'TOO_LARGE'
      | 'COMPRESSION_RATIO_TOO_HIGH'
      | 'INVALID_COMPRESSION'
      | 'UNSUPPORTED_CONTENT_ENCODING',
    message: string,
    /** For the server's log only, never for the client: what a name resolved to, the network's own words. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'FetchRefusedError';
  }
}

export interface FetchedBody {
  /** The URL finally read, after redirects. */
  url: string;
  contentType: string;
  /** The Content-Encoding header, if any: `body` is as sent, still encoded. */
  contentEncoding: string | undefined;
  body: Readable;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'sitemaps-platform-import/1.0 (+sitemap import)';

/** Byte budget shared by every file of one import, and the cap of each file. */
export class ByteBudget {
  constructor(
    private remaining: number,
    readonly perFile: number,
  ) {}

  /** Counts bytes through; fails the stream with TOO_LARGE past the file cap or the budget. */
  meter(label: string): Transform {
    let file = 0;
    return new Transform({
      // An arrow function: `this` is the budget, not the stream.
      transform: (chunk: Buffer, _encoding, callback: TransformCallback) => {
        file += chunk.length;
        this.remaining -= chunk.length;
        if (file > this.perFile)
          return callback(new FetchRefusedError('TOO_LARGE', `${label} is larger than ${this.perFile} bytes`));
        if (this.remaining < 0)
          return callback(
            new FetchRefusedError('TOO_LARGE', `the import read more than its total byte budget at ${label}`),
          );
        callback(null, chunk);
      },
    });
  }
}

export async function fetchUrl(rawUrl: string, policy: FetchPolicy, signal: AbortSignal): Promise<FetchedBody> {
  let url = new URL(rawUrl);
  const hostname = url.hostname;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new FetchRefusedError('UNSUPPORTED_SCHEME', `${url.href}: only http and https are fetched`);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    // An IP literal never reaches the resolver hook.
    if (net.isIP(literal) && !policy.allowPrivateAddresses && !isPublicAddress(literal)) {
      throw new FetchRefusedError(
        'ADDRESS_REFUSED',
        `${url.href}: ${literal} is a private, loopback or link-local address`,
      );
    }
    const response = await request(url, policy, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location) {
      response.resume();
      if (hop >= policy.maxRedirects)
        throw new FetchRefusedError('TOO_MANY_REDIRECTS', `${rawUrl}: more than ${policy.maxRedirects} redirects`);
      const next = new URL(location, url);
      if (policy.sameHostRedirects && next.hostname !== hostname)
        throw new FetchRefusedError('REDIRECT_REFUSED', `${url.href} redirects to another host (${next.hostname})`);
      url = next;
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw new FetchRefusedError('HTTP_STATUS', `${url.href} answered ${status}`);
    }
    const encoding = response.headers['content-encoding'];
    return {
      url: url.href,
      contentType: String(response.headers['content-type'] ?? ''),
      contentEncoding: encoding === undefined ? undefined : String(encoding),
      body: response,
    };
  }
}

function request(url: URL, policy: FetchPolicy, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      agent: false,
      signal,
      lookup: guardedLookup(policy),
      timeout: policy.requestTimeoutMs,
      headers: {
        'user-agent': policy.userAgent ?? USER_AGENT,
        'accept-encoding': 'gzip, deflate, br',
        accept: 'application/xml, text/xml, text/plain, */*',
      },
    });
    req.on('timeout', () =>
      req.destroy(new FetchRefusedError('TIMEOUT', `${url.href}: no answer within ${policy.requestTimeoutMs} ms`)),
    );
    req.on('response', (response) => {
      // The idle timeout keeps guarding the body: a server that stops sending fails the read.
      response.on('error', () => undefined);
      resolve(response);
    });
    req.on('error', (error) => reject(asRefusal(error, url)));
    req.end();
  });
}

/** The resolver hook that refuses private addresses (unless allowed): sockets connect only to what it approved. */
export function guardedLookup(policy: Pick<FetchPolicy, 'allowPrivateAddresses' | 'resolve'>): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const lookup = policy.resolve
      ? (done: (error: Error | null, addresses: dns.LookupAddress[]) => void) =>
          policy.resolve!(hostname).then(
            (all) => done(null, family ? all.filter((a) => a.family === family) : all),
            (error: Error) => done(error, []),
          )
      : (done: (error: Error | null, addresses: dns.LookupAddress[]) => void) =>
          dns.lookup(hostname, { all: true, family }, done);
    lookup((error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = policy.allowPrivateAddresses
        ? undefined
        : addresses.find((entry) => !isPublicAddress(entry.address));
      // What a name resolves to stays in the detail: through a split-horizon resolver, a message
      // with the address would let any caller map the platform's internal names.
      if (refused)
        return callback(
          new FetchRefusedError(
            'ADDRESS_REFUSED',
            `${hostname} resolves to a private, loopback or link-local address`,
            `${hostname} resolves to ${refused.address}`,
          ),
          '',
          0,
        );
      if (addresses.length === 0)
        return callback(new FetchRefusedError('ADDRESS_REFUSED', `${hostname} has no address`), '', 0);
      if (options.all) (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export function asRefusal(error: unknown, url: URL | string): FetchRefusedError {
  if (error instanceof FetchRefusedError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof FetchRefusedError) return cause;
  const name = (error as Error).name;
  if (name === 'AbortError') return new FetchRefusedError('TIMEOUT', `${String(url)}: the import ran out of time`);
  return new FetchRefusedError(
    'FETCH_FAILED',
    `${String(url)}: ${networkFailure(error)}`,
    `${String(url)}: ${(error as Error).message}`,
  );
}

const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOTFOUND: 'the name does not resolve',
  ENODATA: 'the name has no address',
  EAI_AGAIN: 'the name could not be resolved (a temporary DNS failure)',
  ESERVFAIL: 'the name could not be resolved (the DNS server failed)',
};

/**
 * Why a connection failed, in words a client may read: Node's own messages name the address
 * that was dialled ("connect ECONNREFUSED 10.20.30.40:443"), which maps internal names for
 * whoever asks. Addresses left in an unknown message are masked.
 */
export function networkFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && NETWORK_FAILURES[code]) return NETWORK_FAILURES[code];
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '<address>')
    .replace(/\[?\b[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}\]?(?::\d+)?/gi, '<address>');
}
