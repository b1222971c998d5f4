import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { AppConfig } from '@sitemaps/config';
import { DomainError } from '@sitemaps/domain';
import { fetchUrl, FetchRefusedError } from '@sitemaps/ingest';
import { MAX_BYTES_PER_FILE, validateSitemapSet, type FileReport, type SitemapSource } from '@sitemaps/sitemap-xml';
import { CONFIG } from '../api.tokens';
import type { ValidationView } from './validate.schemas';

/** Read at most this much of a document: a valid one is 50 MiB uncompressed, less gzipped. */
export const MAX_DOCUMENT_BYTES = MAX_BYTES_PER_FILE;

/**
 * The sitemap-xml lib's validator behind the API: an uploaded document, or one fetched with the
 * import's SSRF-safe client. One validation at a time per process: libxml2 builds the document's
 * tree in WebAssembly memory, hundreds of MB for a 50 MiB file, outside the API's heap cap.
 */
@Injectable()
export class ValidateService {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(@Inject(CONFIG) private readonly config: AppConfig) {}

  async validateUpload(body: Readable): Promise<ValidationView> {
    const content = await readBounded(body, 'the upload');
    return this.serially(() => validateSitemapSet({ name: 'upload', content }));
  }

  async validateUrl(url: string, follow: boolean): Promise<ValidationView> {
    const load = (target: string): Promise<SitemapSource> => this.fetch(target);
    const root = await load(url).catch((error: unknown) => {
      if (error instanceof FetchRefusedError)
        throw new DomainError(error.code === 'TOO_LARGE' ? 'too_large' : 'invalid', error.code, error.message);
      throw error;
    });
    return this.serially(() => validateSitemapSet(root, { follow, load, concurrency: 2 }));
  }

  private async fetch(url: string): Promise<SitemapSource> {
    const { maxRedirects, requestTimeoutMs, allowPrivateAddresses } = this.config.import;
    const signal = AbortSignal.timeout(this.config.import.timeoutMs);
    const fetched = await fetchUrl(url, { allowPrivateAddresses, maxRedirects, requestTimeoutMs }, signal);
    return { name: url, content: await readBounded(fetched.body, url) };
  }

  private async serially(run: () => Promise<FileReport[]>): Promise<ValidationView> {
    const turn = this.queue.then(run, run);
    this.queue = turn.catch(() => undefined);
    const reports = await turn;
    return {
      valid: reports.every((report) => report.problems.length === 0),
      files: reports.map(({ file, kind, entries, bytes, problems }) => ({
        file,
        kind: kind ?? null,
        entries,
        bytes,
        problems,
      })),
    };
  }
}

/**
 * Reads a body up to the limit. Past it, the stream is left paused, not destroyed: destroying a
 * request would reset the connection before the 413 reaches the client (see replyWithError).
 */
function readBounded(stream: Readable, label: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_DOCUMENT_BYTES) return void chunks.push(chunk);
      stream.off('data', onData).pause();
      reject(
        new DomainError(
          'too_large',
          'DOCUMENT_TOO_LARGE',
          `${label} is larger than ${MAX_DOCUMENT_BYTES.toLocaleString('en-US')} bytes, the most a sitemap may be`,
        ),
      );
    };
    stream.on('data', onData);
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}
