// Fetches a site's sitemaps from the public server as a crawler would, and validates each file
// with ../shared/tools/validate-sitemap (xmllint against the protocol's XSDs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { rawRequest } from '@sitemaps/testing';

export const VALIDATOR = path.resolve(__dirname, '../../../shared/tools/validate-sitemap');

export interface FetchedFile {
  path: string;
  status: number;
  etag: string | null;
  body: Buffer;
  /** Decompressed XML. */
  xml: string;
}

export async function fetchFile(publicUrl: string, host: string, filePath: string, headers: Record<string, string> = {}): Promise<FetchedFile> {
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

/** Runs the shared validator on the given documents; returns its exit code and output. */
export function validateSitemaps(documents: { name: string; data: Buffer | string }[]): { status: number; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'validate-'));
  try {
    const files = documents.map((document, index) => {
      const file = path.join(dir, `${index}-${path.basename(document.name)}`);
      writeFileSync(file, document.data);
      return file;
    });
    const result = spawnSync(VALIDATOR, files, { encoding: 'utf8' });
    return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function unescapeXml(value: string): string {
  return value.replace(/&(amp|apos|quot|lt|gt);/g, (_, name: string) => ({ amp: '&', apos: "'", quot: '"', lt: '<', gt: '>' })[name] ?? '');
}
