// Request -> response for the public server: resolve the site, then answer from its manifest.
// Everything a conditional request or robots.txt needs is in the cached manifest; file bytes
// are read only for a 200 GET. Once a site (and a file's bytes) are cached, the answer comes from
// memory without a tick (`respondFromMemory`): no await, no Postgres, no Redis.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Inject, Injectable } from '@nestjs/common';
import { blobPath, type ManifestFile } from '@sitemaps/storage';
import { ManifestReader, type FileVariant, type PublishedFile, type SiteSnapshot } from '@sitemaps/serving';
import { INDEX_PATH, indexEntries, LEGACY_SHARD_FOLDER, stylesheetHref, type ManifestFiles } from '@sitemaps/domain';
import { renderSitemapIndex, SITEMAP_STYLESHEET, XSL_STYLESHEET_FILE } from '@sitemaps/sitemap-xml';
import { acceptsGzip, ifRangeHolds, isNotModified, parseByteRange } from './http-conditions';
import { normalizeHostname, requestHost, resolveTarget, type RequestTarget } from './request-target';

export const PUBLIC_OPTIONS = Symbol('PUBLIC_OPTIONS');

export interface PublicOptions {
  /** Lowercase host of PUBLIC_BASE_URL, where sites are served under `/s/<hostname>/`; null: off. */
  platformHost: string | null;
  /** PUBLIC_BASE_URL's origin (`https://sitemaps.example.net`), for the locations of files under `/s/<hostname>/`. */
  platformOrigin?: string | null;
  /** Where a CDN serves the blob store (STORAGE_PUBLIC_BASE_URL, no trailing slash): a GET of a
   *  shard as stored (`.xml.gz`) is redirected there instead of read; null: served from here. */
  blobBaseUrl: string | null;
}

export interface PublicRequest {
  method: string;
  url: string;
  headers: {
    host?: string;
    'accept-encoding'?: string;
    'if-none-match'?: string;
    'if-modified-since'?: string;
    range?: string;
    'if-range'?: string;
  };
}

export interface PublicResponse {
  status: number;
  /** Shared between requests (built once per file and snapshot): never modify. */
  headers: Readonly<Record<string, string>>;
  body?: Buffer | string;
}

/** A response whose body is a file's bytes, still to be read. */
interface FileAnswer {
  response: PublicResponse;
  read?: { siteId: string; file: ManifestFile; variant: FileVariant; length: number };
}

/** One representation of a file or text: its validators and the header sets it is sent with. */
interface Representation {
  etag: string;
  lastModified: Date | null;
  notModified: Readonly<Record<string, string>>;
  /** A GET's headers: a text's with its Content-Length, a file's without (see `head`). */
  ok: Readonly<Record<string, string>>;
  /** The GET headers with the Content-Length the manifest records: HEAD's, and a GET's when the bytes read agree (`withBody`). */
  head: Readonly<Record<string, string>>;
}

/** A file made by this server rather than read from the store (the index under `/s/<hostname>/`). */
interface InlineFile extends PublishedFile {
  inline: { gzip: Buffer; identity: Buffer };
}

/** `stored`: `x.xml.gz` as stored; `gzip` and `identity`: `x.xml`, negotiated by Accept-Encoding. */
type FileForm = 'stored' | 'gzip' | 'identity';

const TEXT = 'text/plain; charset=utf-8';
/** Served paths are short; a longer request target is a probe or a mistake (nginx allows 8 KiB for the whole line). */
export const MAX_URL_LENGTH = 4_096;

@Injectable()
export class PublicService {
  /** Per snapshot: its files' representations and its robots.txt, built on first use. */
  private readonly files = new WeakMap<PublishedFile, Partial<Record<FileForm, Representation>>>();
  private readonly texts = new WeakMap<SiteSnapshot, { robots?: TextFile; indexNowKey?: TextFile }>();
  private readonly redirects = new WeakMap<PublishedFile, PublicResponse>();
  /** Per snapshot: the index served under `/s/<hostname>/`, which lists the files there. */
  private readonly platformIndexes = new WeakMap<SiteSnapshot, InlineFile>();

  constructor(
    private readonly reader: ManifestReader,
    @Inject(PUBLIC_OPTIONS) private readonly options: PublicOptions,
  ) {}

  /**
   * The answer from memory alone, or undefined when the site or the file's bytes must be loaded
   * first (`respond` then does). Never waits: the hot path of 304s and robots.txt.
   */
  respondFromMemory(request: PublicRequest): PublicResponse | undefined {
    const target = this.target(request);
    if (!('hostname' in target)) return target;
    const snapshot = this.reader.peek(target.hostname);
    if (snapshot === undefined) return undefined;
    const { response, read } = this.answer(request, target, snapshot);
    const body = read && this.reader.peekBytes(read.siteId, read.file, read.variant);
    if (read && !body) return undefined;
    // Counted once answered: a Postgres outage's answers from the last manifest (stale-if-error).
    if (this.reader.staleSites !== 0) this.reader.countStaleAnswer(snapshot);
    return ranged(request, read && body ? withBody(response, body, read.length) : response);
  }

  async respond(request: PublicRequest): Promise<PublicResponse> {
    const target = this.target(request);
    if (!('hostname' in target)) return target;
    const snapshot = await this.reader.load(target.hostname);
    const { response, read } = this.answer(request, target, snapshot);
    const answer = read
      ? withBody(response, await this.reader.read(read.siteId, read.file, read.variant), read.length)
      : response;
    if (this.reader.staleSites !== 0) this.reader.countStaleAnswer(snapshot);
    return ranged(request, answer);
  }

  /**
   * A TLS terminator's question before it gets a certificate for a name (Caddy's on-demand TLS
   * `ask`): 200 when this server serves `?domain=` — a verified site of a tenant in good standing,
   * or PUBLIC_BASE_URL's host — 404 when not, 400 without a usable name. Says nothing else. From
   * the same cache as the files: an unknown name costs one query per unknown-host TTL.
   */
  async answerTlsAsk(url: string): Promise<PublicResponse> {
    const query = url.indexOf('?');
    const domain = new URLSearchParams(query < 0 ? '' : url.slice(query + 1)).get('domain');
    const hostname = normalizeHostname(domain ?? undefined);
    // A port or a trailing dot is not part of a name a certificate is asked for.
    if (hostname === null || hostname !== domain?.toLowerCase()) return BAD_REQUEST;
    if (hostname === this.options.platformHost) return TLS_ALLOWED;
    return (await this.reader.load(hostname)) ? TLS_ALLOWED : NOT_FOUND;
  }

  /** What the request names, or the answer when that alone decides it. */
  private target(request: PublicRequest): RequestTarget | PublicResponse {
    if (request.method !== 'GET' && request.method !== 'HEAD') return METHOD_NOT_ALLOWED;
    if (request.url.length > MAX_URL_LENGTH) return URI_TOO_LONG;
    const target = resolveTarget(request.headers.host, request.url, this.options.platformHost);
    if (target === 'bad-request') return BAD_REQUEST;
    return target ?? NOT_FOUND;
  }

  private answer(request: PublicRequest, target: RequestTarget, snapshot: SiteSnapshot | null): FileAnswer {
    if (!snapshot) return { response: NOT_FOUND };
    const { settings } = snapshot.site;
    if (target.path === 'robots.txt') return { response: this.text(request, snapshot, 'robots') };
    if (target.path === XSL_STYLESHEET_FILE) return { response: stylesheet(request) };
    if (target.path === `${settings.indexNowKey}.txt`) return { response: this.text(request, snapshot, 'indexNowKey') };
    const files = snapshot.manifest?.files;
    // `x.xml.gz` as stored; `x.xml` (or a listed `sitemap.xml`) as XML, gzip only if the client asks.
    const stored = target.path.endsWith('.gz') ? files?.get(target.path) : undefined;
    if (stored) return this.file(request, snapshot, stored, 'stored');
    let negotiated = files?.get(target.path) ?? files?.get(`${target.path}.gz`);
    // Listed until the next publish after the site turns it off; the setting decides at once.
    if (negotiated?.kind === 'text' && !settings.textSitemap) return { response: NOT_FOUND };
    // Cross-submission: the index under `/s/<hostname>/` lists the files served there.
    if (negotiated?.kind === 'index' && this.viaPlatform(request, target)) negotiated = this.platformIndex(snapshot);
    if (negotiated)
      return this.file(
        request,
        snapshot,
        negotiated,
        acceptsGzip(request.headers['accept-encoding']) ? 'gzip' : 'identity',
      );
    if (target.path.startsWith(LEGACY_SHARD_FOLDER)) return { response: this.moved(request, target, snapshot) };
    return { response: NOT_FOUND };
  }

  /** Whether the request came by the platform's host, under `/s/<hostname>/`. */
  private viaPlatform(request: PublicRequest, target: RequestTarget): boolean {
    const { platformHost } = this.options;
    return (
      platformHost !== null &&
      platformHost !== target.hostname &&
      normalizeHostname(requestHost(request.headers.host, request.url)) === platformHost
    );
  }

  /** The origin and prefix of the site's files as this request reached them, e.g. `https://shop.example.com/`. */
  private base(request: PublicRequest, target: RequestTarget, snapshot: SiteSnapshot): string {
    const { site } = snapshot;
    return this.options.platformOrigin && this.viaPlatform(request, target)
      ? `${this.options.platformOrigin}/s/${site.hostname}/`
      : `${site.scheme}://${site.hostname}/`;
  }

  /**
   * A path from before shards moved to the site's root: 301 to where the same file is now, for
   * as long as it is published (`sitemaps/x.xml` as well as `sitemaps/x.xml.gz`).
   */
  private moved(request: PublicRequest, target: RequestTarget, snapshot: SiteSnapshot): PublicResponse {
    const redirects = snapshot.manifest?.redirects;
    const gz = target.path.endsWith('.gz');
    const to = redirects?.get(target.path) ?? (gz ? undefined : redirects?.get(`${target.path}.gz`)?.slice(0, -3));
    if (to === undefined) return NOT_FOUND;
    return {
      status: 301,
      headers: {
        location: this.base(request, target, snapshot) + to,
        'cache-control': cacheControl(snapshot),
        'content-length': '0',
      },
    };
  }

  /**
   * The index as served under `/s/<hostname>/`: the same entries as the stored one, each at the
   * platform's address of the file, so a crawler that follows a cross-submitted index reads every
   * file where it is served (and the files sit under the index's directory, as the protocol asks).
   * Made once per snapshot; its tag differs from the stored index's.
   */
  private platformIndex(snapshot: SiteSnapshot): PublishedFile | InlineFile | undefined {
    const manifest = snapshot.manifest;
    const stored = manifest?.files.get(INDEX_PATH);
    if (!manifest || !stored || !this.options.platformOrigin) return stored;
    let index = this.platformIndexes.get(snapshot);
    if (!index) {
      const files: ManifestFiles = Object.fromEntries(manifest.files);
      const xml = Buffer.from(
        renderSitemapIndex(indexEntries(files, `${this.options.platformOrigin}/s/${snapshot.site.hostname}`), {
          stylesheet: snapshot.site.settings.xslStylesheet ? stylesheetHref(INDEX_PATH) : null,
        }),
      );
      const gzip = gzipSync(xml);
      index = {
        ...stored,
        sha256: createHash('sha256').update(gzip).digest('hex'),
        byteSize: xml.length,
        gzipSize: gzip.length,
        inline: { gzip, identity: xml },
      };
      this.platformIndexes.set(snapshot, index);
    }
    return index;
  }

  private file(
    request: PublicRequest,
    snapshot: SiteSnapshot,
    file: PublishedFile | InlineFile,
    form: FileForm,
  ): FileAnswer {
    const representation = this.representation(snapshot, file, form);
    if (isNotModified(request.headers, representation.etag, representation.lastModified))
      return { response: { status: 304, headers: representation.notModified } };
    if (request.method === 'HEAD') return { response: { status: 200, headers: representation.head } };
    if (form === 'stored' && file.kind === 'shard' && this.options.blobBaseUrl !== null) {
      return { response: this.redirect(snapshot, file, this.options.blobBaseUrl) };
    }
    const length = form === 'identity' ? file.byteSize : file.gzipSize;
    if ('inline' in file)
      return {
        response: withBody(
          { status: 200, headers: representation.head },
          file.inline[form === 'identity' ? 'identity' : 'gzip'],
          length,
        ),
      };
    return {
      response: { status: 200, headers: representation.head },
      read: {
        siteId: snapshot.site.id,
        file,
        variant: form === 'identity' ? 'identity' : 'gzip',
        length,
      },
    };
  }

  /** Shards are the bulk of the bytes; the index and robots.txt stay on the site's host, as crawlers require. */
  private redirect(snapshot: SiteSnapshot, file: PublishedFile, baseUrl: string): PublicResponse {
    let response = this.redirects.get(file);
    if (!response) {
      // 302, not 301: the path's file changes with each publish, so the redirect is cached only as the file is.
      const location = `${baseUrl}/${blobPath(snapshot.site.id, file.sha256)}`;
      response = { status: 302, headers: { location, 'cache-control': cacheControl(snapshot), 'content-length': '0' } };
      this.redirects.set(file, response);
    }
    return response;
  }

  private representation(snapshot: SiteSnapshot, file: PublishedFile, form: FileForm): Representation {
    let forms = this.files.get(file);
    if (!forms) this.files.set(file, (forms = {}));
    return (forms[form] ??= fileRepresentation(snapshot, file, form));
  }

  private text(request: PublicRequest, snapshot: SiteSnapshot, which: 'robots' | 'indexNowKey'): PublicResponse {
    let texts = this.texts.get(snapshot);
    if (!texts) this.texts.set(snapshot, (texts = {}));
    const { representation, body } = (texts[which] ??= textFile(
      snapshot,
      which === 'robots' ? robotsTxt(snapshot) : snapshot.site.settings.indexNowKey,
    ));
    if (isNotModified(request.headers, representation.etag, null))
      return { status: 304, headers: representation.notModified };
    return request.method === 'HEAD'
      ? { status: 200, headers: representation.ok }
      : { status: 200, headers: representation.ok, body };
  }
}

function fileRepresentation(snapshot: SiteSnapshot, file: PublishedFile, form: FileForm): Representation {
  const validators: Record<string, string> = {
    // The decompressed variant is a different representation: it needs a different strong tag.
    etag: form === 'identity' ? `"${file.sha256}-identity"` : `"${file.sha256}"`,
    'last-modified': file.storedAt.toUTCString(),
    'cache-control': cacheControl(snapshot),
    'x-robots-tag': 'noindex',
  };
  if (form !== 'stored') validators.vary = 'Accept-Encoding';
  const ok: Record<string, string> = {
    ...validators,
    'accept-ranges': 'bytes',
    'content-type':
      form === 'stored' ? 'application/gzip' : file.kind === 'text' ? TEXT : 'application/xml; charset=utf-8',
  };
  if (form === 'gzip') ok['content-encoding'] = 'gzip';
  const length = form === 'identity' ? file.byteSize : file.gzipSize;
  return {
    etag: validators.etag as string,
    lastModified: file.storedAt,
    notModified: validators,
    ok,
    head: { ...ok, 'content-length': String(length) },
  };
}

interface TextFile {
  body: string;
  representation: Representation;
}

/** robots.txt and the IndexNow key have no stored hash: their tag is a hash of the text, taken once per snapshot. */
function textFile(snapshot: SiteSnapshot, body: string): TextFile {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const validators = { etag, 'cache-control': cacheControl(snapshot) };
  // The text is the tenant's (robots.txt rules), served on the platform's own host too (/s/<hostname>/):
  // a browser must never sniff it as HTML there.
  const ok = {
    ...validators,
    'accept-ranges': 'bytes',
    'content-type': TEXT,
    'content-length': String(Buffer.byteLength(body)),
    'x-content-type-options': 'nosniff',
  };
  return { body, representation: { etag, lastModified: null, notModified: validators, ok, head: ok } };
}

/** The same for every site: files that name it (the site's `xslStylesheet`) show as a table in a browser. */
const STYLESHEET = (() => {
  const body = Buffer.from(SITEMAP_STYLESHEET);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const validators = { etag, 'cache-control': 'public, max-age=3600', 'x-robots-tag': 'noindex' };
  return {
    body,
    validators,
    ok: {
      ...validators,
      'accept-ranges': 'bytes',
      'content-type': 'text/xsl; charset=utf-8',
      'content-length': String(body.length),
    },
  };
})();

function stylesheet(request: PublicRequest): PublicResponse {
  if (isNotModified(request.headers, STYLESHEET.validators.etag, null))
    return { status: 304, headers: STYLESHEET.validators };
  return request.method === 'HEAD'
    ? { status: 200, headers: STYLESHEET.ok }
    : { status: 200, headers: STYLESHEET.ok, body: STYLESHEET.body };
}

/** Served before the first publish too: it only names where the index will be. */
function robotsTxt({ site, manifest }: SiteSnapshot): string {
  const rules = site.settings.robotsTxt?.trimEnd() || 'User-agent: *\nAllow: /';
  const origin = `${site.scheme}://${site.hostname}`;
  // A sitemap index lists XML sitemaps only: each text file is named here, in order.
  const texts = site.settings.textSitemap
    ? [...(manifest?.files ?? [])]
        .filter(([, file]) => file.kind === 'text')
        .map(([path]) => path)
        .sort(compareTextPaths)
    : [];
  return `${rules}\n\n${[INDEX_PATH, ...texts].map((path) => `Sitemap: ${origin}/${path}\n`).join('')}`;
}

/** `sitemap.txt`, then `sitemap-2.txt`, `sitemap-3.txt`… */
function compareTextPaths(a: string, b: string): number {
  const n = (path: string) => Number(/-(\d+)\.txt$/.exec(path)?.[1] ?? 1);
  return n(a) - n(b);
}

function cacheControl({ site }: SiteSnapshot): string {
  return `public, max-age=${site.settings.cacheMaxAge}`;
}

/**
 * Every answer with a body says how long it is: the in-memory lane writes the head before the
 * body, and Node would otherwise fall back to chunked encoding. The headers carry the length the
 * manifest records (built once per file); only bytes of another length need headers of their own.
 */
function withBody(response: PublicResponse, body: Buffer, length: number): PublicResponse {
  if (body.length === length) return { status: response.status, headers: response.headers, body };
  return { status: response.status, headers: { ...response.headers, 'content-length': String(body.length) }, body };
}

/**
 * A GET's 200 cut to the byte range the client asks for: 206 with Content-Range, or 416 when
 * the range starts past the end; the 200 itself without a Range, when If-Range no longer holds,
 * or when the range is to be ignored (several ranges: see parseByteRange). The range counts the
 * bytes of the representation sent — the gzip bytes when it goes out gzip-encoded — which its
 * ETag names (`"<sha256>"` for those, `"<sha256>-identity"` for the decompressed XML). A HEAD's
 * 200 has no body here and stays whole: range handling is defined for GET only (RFC 9110 §14.2).
 */
function ranged(request: PublicRequest, response: PublicResponse): PublicResponse {
  // A 304 or a HEAD costs the first tests, a 200 without Range the header lookup besides.
  if (response.status !== 200 || response.body === undefined) return response;
  const header = request.headers.range;
  if (header === undefined) return response;
  const { headers } = response;
  if (!ifRangeHolds(request.headers['if-range'], headers.etag, headers['last-modified'])) return response;
  const body = typeof response.body === 'string' ? Buffer.from(response.body) : response.body;
  const range = parseByteRange(header, body.length);
  if (range === null) return response;
  if (range === 'unsatisfiable')
    return plain(416, 'Range Not Satisfiable', { 'content-range': `bytes */${body.length}` });
  return {
    status: 206,
    headers: {
      ...headers,
      'content-range': `bytes ${range.start}-${range.end}/${body.length}`,
      'content-length': String(range.end - range.start + 1),
    },
    body: body.subarray(range.start, range.end + 1),
  };
}

/** Error bodies name nothing: no site, no path, no id. */
function plain(status: number, message: string, headers: Record<string, string> = {}): PublicResponse {
  const body = `${message}\n`;
  return {
    status,
    headers: { 'content-type': TEXT, 'content-length': String(Buffer.byteLength(body)), ...headers },
    body,
  };
}

const BAD_REQUEST = plain(400, 'Bad Request');
const NOT_FOUND = plain(404, 'Not Found');
const METHOD_NOT_ALLOWED = plain(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
const URI_TOO_LONG = plain(414, 'URI Too Long');
const TLS_ALLOWED = plain(200, 'OK', { 'cache-control': 'no-store' });
