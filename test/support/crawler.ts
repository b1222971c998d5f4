// Fetches a site's sitemaps from the public server as a crawler would, and validates each file
// with the project's validator (the published XSDs through libxml2 in WebAssembly, and the
// protocol's rules: see libs/sitemap-xml/src/validate).
import { gunzipSync } from 'node:zlib';
import { formatProblem, validateSitemapFile } from '@sitemaps/sitemap-xml';
// The file, not the lib's index: the fault soak's script imports this outside vitest.
import { rawRequest, type RawResponse } from '@sitemaps/testing/src/raw-http';

export interface FetchedFile {
  path: string;
  status: number;
  etag: string | null;
  body: Buffer;
  /** Decompressed XML. */
  xml: string;
}

export async function fetchFile(
  publicUrl: string,
  host: string,
  filePath: string,
  headers: Record<string, string> = {},
): Promise<FetchedFile> {
  const response = await rawRequest(publicUrl, `/${filePath.replace(/^\//, '')}`, { host, headers });
  const body = response.body;
  const xml = body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body).toString('utf8') : body.toString('utf8');
  const etag = response.headers.etag;
  return { path: filePath, status: response.status, etag: typeof etag === 'string' ? etag : null, body, xml };
}

export function locsOf(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => unescapeXml(match[1] ?? ''));
}

/** The index and every shard it lists, fetched through the public server. */
export async function crawl(publicUrl: string, host: string) {
  const index = await fetchFile(publicUrl, host, 'sitemap.xml');
  const shards: FetchedFile[] = [];
  for (const loc of locsOf(index.xml)) shards.push(await fetchFile(publicUrl, host, new URL(loc).pathname));
  return { index, shards };
}

/** Validates each document; status 0 when every one passes, with one line per problem. */
export async function validateSitemaps(
  documents: { name: string; data: Buffer | string }[],
): Promise<{ status: number; output: string }> {
  const reports = await Promise.all(
    documents.map((document) =>
      validateSitemapFile(
        document.name,
        typeof document.data === 'string' ? Buffer.from(document.data) : document.data,
      ),
    ),
  );
  const problems = reports.flatMap((report) => report.problems);
  return { status: problems.length === 0 ? 0 : 1, output: problems.map(formatProblem).join('\n') };
}

function unescapeXml(value: string): string {
  return value.replace(
    /&(amp|apos|quot|lt|gt);/g,
    (_, name: string) => ({ amp: '&', apos: "'", quot: '"', lt: '<', gt: '>' })[name] ?? '',
  );
}

/** One file a crawler read: where, what it is, and the URLs it lists. */
export interface CrawledFile {
  url: string;
  status: number;
  kind: 'sitemapindex' | 'urlset' | 'text';
  /** The bytes as served (gzip for `.xml.gz`). */
  body: Buffer;
  locs: string[];
  /** Per listed sitemap of an index: its `<lastmod>`, if any. */
  lastmods: Map<string, string | undefined>;
}

/**
 * Follows a site as a crawler does: robots.txt's `Sitemap:` lines, each sitemap they name, and
 * each sitemap an index lists (one level: an index in an index is refused). `get` answers an
 * absolute URL (a crawler's DNS and HTTP); a file that does not answer 200 is returned as is.
 * Redirects are not followed: a listed file must be where it is listed.
 */
export async function crawlFromRobots(
  robotsUrl: string,
  get: (url: URL) => Promise<RawResponse>,
): Promise<{ robots: string; sitemaps: string[]; files: CrawledFile[] }> {
  const robots = (await get(new URL(robotsUrl))).body.toString('utf8');
  const sitemaps = [...robots.matchAll(/^sitemap:\s*(\S+)\s*$/gim)].map((match) => match[1] as string);
  const files: CrawledFile[] = [];
  const read = async (url: string): Promise<CrawledFile> => {
    const response = await get(new URL(url));
    const body = response.body;
    const text = (body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body).toString('utf8');
    const kind = text.includes('<sitemapindex') ? 'sitemapindex' : text.includes('<urlset') ? 'urlset' : 'text';
    const locs = kind === 'text' ? text.split('\n').filter(Boolean) : locsOf(text);
    const lastmods = new Map<string, string | undefined>();
    if (kind === 'sitemapindex')
      for (const [entry] of text.matchAll(/<sitemap>[\s\S]*?<\/sitemap>/g))
        lastmods.set(
          unescapeXml(/<loc>([^<]*)<\/loc>/.exec(entry)?.[1] ?? ''),
          /<lastmod>([^<]*)<\/lastmod>/.exec(entry)?.[1],
        );
    const file = { url, status: response.status, kind, body, locs, lastmods } satisfies CrawledFile;
    files.push(file);
    return file;
  };
  for (const sitemap of sitemaps) {
    const file = await read(sitemap);
    if (file.status === 200 && file.kind === 'sitemapindex') for (const loc of file.locs) await read(loc);
  }
  return { robots, sitemaps, files };
}

/** A crawler's `get` for sites the public server answers by Host. */
export function viaPublicServer(publicUrl: string): (url: URL) => Promise<RawResponse> {
  return (url) => rawRequest(publicUrl, url.pathname + url.search, { host: url.host });
}

/** The protocol's rule: a file may list only URLs under its own directory (same scheme and host). */
export function underDirectoryOf(fileUrl: string, loc: string): boolean {
  return loc.startsWith(new URL('.', fileUrl).href);
}
