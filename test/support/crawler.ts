// Fetches a site's sitemaps from the public server as a crawler would, and validates each file
// with the project's validator (the published XSDs through libxml2 in WebAssembly, and the
// protocol's rules: see libs/sitemap-xml/src/validate).
import { gunzipSync } from 'node:zlib';
import { formatProblem, validateSitemapFile } from '@sitemaps/sitemap-xml';
// The file, not the lib's index: the fault soak's script imports this outside vitest.
import { rawRequest } from '@sitemaps/testing/src/raw-http';

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
