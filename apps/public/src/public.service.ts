// Request -> response for the public server: resolve the site, then answer from its manifest.
// Everything a conditional request or robots.txt needs is in the cached manifest; file bytes
// are read only for a 200 GET.
import { Inject, Injectable } from '@nestjs/common';
import { ManifestReader, type PublishedFile, type SiteSnapshot } from '@sitemaps/storage';
import { acceptsGzip, isNotModified } from './http-conditions';
import { resolveTarget } from './request-target';

export const PUBLIC_OPTIONS = Symbol('PUBLIC_OPTIONS');

export interface PublicOptions {
  /** Lowercase host of PUBLIC_BASE_URL, where sites are served under `/s/<hostname>/`; null: off. */
  platformHost: string | null;
}

export interface PublicRequest {
  method: string;
  url: string;
  headers: {
    host?: string;
    'accept-encoding'?: string;
    'if-none-match'?: string;
    'if-modified-since'?: string;
  };
}

export interface PublicResponse {
  status: number;
  headers: Record<string, string>;
  body?: Buffer | string;
}

const TEXT = 'text/plain; charset=utf-8';
/** Served paths are short; a longer request target is a probe or a mistake (nginx allows 8 KiB for the whole line). */
export const MAX_URL_LENGTH = 4_096;
const TEXT_SITEMAP_PATH = 'sitemap.txt';

@Injectable()
export class PublicService {
  constructor(
    private readonly reader: ManifestReader,
    @Inject(PUBLIC_OPTIONS) private readonly options: PublicOptions,
  ) {}

  async respond(request: PublicRequest): Promise<PublicResponse> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    }
    if (request.url.length > MAX_URL_LENGTH) return plain(414, 'URI Too Long');
    const target = resolveTarget(request.headers.host, request.url, this.options.platformHost);
    if (target === 'bad-request') return plain(400, 'Bad Request');
    const snapshot = target && (await this.reader.load(target.hostname));
    if (!target || !snapshot) return plain(404, 'Not Found');

    if (target.path === 'robots.txt') return text(snapshot, request.method, robotsTxt(snapshot));
    if (target.path === `${snapshot.site.settings.indexNowKey}.txt`) return text(snapshot, request.method, snapshot.site.settings.indexNowKey);
    // Listed until the next publish after the site turns it off; the setting decides at once.
    if (target.path === TEXT_SITEMAP_PATH && !snapshot.site.settings.textSitemap) return plain(404, 'Not Found');
    const files = snapshot.manifest?.files;
    // `x.xml.gz` as stored; `x.xml` (or a listed `sitemap.xml`) as XML, gzip only if the client asks.
    const stored = target.path.endsWith('.gz') ? files?.get(target.path) : undefined;
    if (stored) return this.file(request, snapshot, stored, false);
    const negotiated = files?.get(target.path) ?? files?.get(`${target.path}.gz`);
    if (negotiated) return this.file(request, snapshot, negotiated, true);
    return plain(404, 'Not Found');
  }

  private async file(request: PublicRequest, snapshot: SiteSnapshot, file: PublishedFile, negotiated: boolean): Promise<PublicResponse> {
    const gzip = !negotiated || acceptsGzip(request.headers['accept-encoding']);
    const headers: Record<string, string> = {
      // The decompressed variant is a different representation: it needs a different strong tag.
      etag: gzip ? `"${file.sha256}"` : `"${file.sha256}-identity"`,
      'last-modified': file.storedAt.toUTCString(),
      'cache-control': cacheControl(snapshot),
      'x-robots-tag': 'noindex',
    };
    if (negotiated) headers.vary = 'Accept-Encoding';
    if (isNotModified(request.headers, headers.etag as string, file.storedAt)) return { status: 304, headers };

    headers['content-type'] = !negotiated ? 'application/gzip' : file.kind === 'text' ? TEXT : 'application/xml; charset=utf-8';
    if (negotiated && gzip) headers['content-encoding'] = 'gzip';
    if (request.method === 'HEAD') {
      return { status: 200, headers: { ...headers, 'content-length': String(gzip ? file.gzipSize : file.byteSize) } };
    }
    return { status: 200, headers, body: await this.reader.read(snapshot.site.id, file, gzip ? 'gzip' : 'identity') };
  }
}

/** Served before the first publish too: it only names where the index will be. */
function robotsTxt({ site }: SiteSnapshot): string {
  const rules = site.settings.robotsTxt?.trimEnd() || 'User-agent: *\nAllow: /';
  return `${rules}\n\nSitemap: ${site.scheme}://${site.hostname}/sitemap.xml\n`;
}

function text(snapshot: SiteSnapshot, method: string, body: string): PublicResponse {
  const headers = { 'content-type': TEXT, 'cache-control': cacheControl(snapshot) };
  return method === 'HEAD'
    ? { status: 200, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }
    : { status: 200, headers, body };
}

function cacheControl({ site }: SiteSnapshot): string {
  return `public, max-age=${site.settings.cacheMaxAge}`;
}

/** Error bodies name nothing: no site, no path, no id. */
function plain(status: number, message: string, headers: Record<string, string> = {}): PublicResponse {
  return { status, headers: { 'content-type': TEXT, ...headers }, body: `${message}\n` };
}
