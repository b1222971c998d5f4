// The two proofs of a hostname search consoles use: a DNS TXT record at
// _sitemaps-challenge.<hostname> holding the site's token, or the token in a file at
// http(s)://<hostname>/.well-known/sitemaps-verification.txt. DNS goes through a node:dns Resolver
// (VERIFICATION_DNS_SERVERS, else the system's); the file is fetched SSRF-safe like an import's
// sitemaps, its host resolved by the same resolver and every address checked.
import { Resolver } from 'node:dns/promises';
import { Logger } from '@nestjs/common';
import type { LookupAddress } from 'node:dns';
import type { Readable } from 'node:stream';
import type { VerificationConfig } from '@sitemaps/config';
import { challengeRecordName, VERIFICATION_FILE_PATH, type CheckOutcome } from '@sitemaps/domain';
import { asRefusal, fetchUrl, FetchRefusedError, type FetchPolicy } from '@sitemaps/ingest';

/** The file holds the token and nothing else: past this, it is not the proof file. */
const MAX_FILE_BYTES = 1_024;
const TIMEOUT_MS = 10_000;

export interface ProofSubject {
  hostname: string;
  scheme: string;
  token: string;
}

export class HostnameProofs {
  private readonly logger = new Logger('verification');
  private readonly resolver: Resolver;
  private readonly fetchPolicy: FetchPolicy;

  constructor(private readonly config: VerificationConfig) {
    this.resolver = new Resolver({ timeout: 5_000, tries: 2 });
    if (config.dnsServers) this.resolver.setServers(config.dnsServers);
    this.fetchPolicy = {
      allowPrivateAddresses: config.allowPrivateAddresses,
      maxRedirects: 3,
      requestTimeoutMs: TIMEOUT_MS,
      // The proof is read from the host itself: a redirect elsewhere (to a page an attacker
      // controls) proves nothing. http -> https on the same host is followed.
      sameHostRedirects: true,
      userAgent: 'sitemaps-platform-verification/1.0 (+hostname ownership check)',
      // With resolvers of its own, the file's host resolves through them too: one view of the name.
      ...(config.dnsServers ? { resolve: (hostname: string) => this.addresses(hostname) } : {}),
    };
  }

  /** DNS first (cheap), then the file over the site's scheme, then the other scheme. */
  async check(subject: ProofSubject): Promise<CheckOutcome> {
    const dns = await this.checkDns(subject);
    if (dns === true) return { proven: true, method: 'dns' };
    const schemes = subject.scheme === 'http' ? ['http', 'https'] : ['https', 'http'];
    const reasons: string[] = [dns];
    for (const scheme of schemes) {
      const file = await this.checkFile(subject, scheme);
      if (file === true) return { proven: true, method: 'http' };
      reasons.push(file);
    }
    return { proven: false, code: 'PROOF_NOT_FOUND', message: reasons.join('; ') };
  }

  /** True, or why not. */
  private async checkDns({ hostname, token }: ProofSubject): Promise<true | string> {
    const name = challengeRecordName(hostname);
    try {
      const records = await this.resolver.resolveTxt(name);
      // A TXT record may come in several strings of at most 255 bytes: they are one value.
      if (records.some((chunks) => chunks.join('').trim() === token)) return true;
      return `TXT ${name} does not hold the site's token`;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return `no TXT record at ${name}`;
      return `TXT ${name}: lookup failed (${code ?? (error as Error).message})`;
    }
  }

  private async checkFile({ hostname, token }: ProofSubject, scheme: string): Promise<true | string> {
    const port = this.config.httpPort ? `:${this.config.httpPort}` : '';
    const url = `${scheme}://${hostname}${port}${VERIFICATION_FILE_PATH}`;
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    try {
      const { body } = await fetchUrl(url, this.fetchPolicy, signal);
      // The whole body is the token (surrounding whitespace aside): a page that merely contains
      // it, such as a soft 404 echoing the requested path or a comment, proves nothing.
      const text = await readPrefix(body, MAX_FILE_BYTES + 1);
      if (Buffer.byteLength(text) > MAX_FILE_BYTES)
        return `${url} is larger than a token file (${MAX_FILE_BYTES} bytes)`;
      return text.trim() === token ? true : `${url} does not hold exactly the site's token`;
    } catch (error) {
      const refused = error instanceof FetchRefusedError ? error : asRefusal(error, url);
      // Messages are the tenant's to read; what names resolved to stays in the server's log.
      if (refused.detail) this.logger.warn(`verification of ${hostname}: ${refused.detail}`);
      return refused.message;
    }
  }

  private async addresses(hostname: string): Promise<LookupAddress[]> {
    const settled = await Promise.allSettled([this.resolver.resolve4(hostname), this.resolver.resolve6(hostname)]);
    const [v4, v6] = settled.map((result) => (result.status === 'fulfilled' ? result.value : []));
    const all = [
      ...(v4 ?? []).map((address) => ({ address, family: 4 })),
      ...(v6 ?? []).map((address) => ({ address, family: 6 })),
    ];
    if (!all.length) {
      const failure = settled.find((result) => result.status === 'rejected');
      throw failure?.status === 'rejected' ? failure.reason : new Error(`${hostname} has no address`);
    }
    return all;
  }
}

async function readPrefix(body: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= maxBytes) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}
