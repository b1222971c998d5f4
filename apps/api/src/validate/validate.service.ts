import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { AppConfig } from '@sitemaps/config';
import { DomainError } from '@sitemaps/domain';
import { fetchUrl, FetchRefusedError } from '@sitemaps/ingest';
import { redactUrl } from '@sitemaps/observability';
import { MAX_BYTES_PER_FILE, validateSitemapSet, type FileReport, type SitemapSource } from '@sitemaps/sitemap-xml';
import type { ApiLimits } from '../api.limits';
import { API_LIMITS } from '../api.tokens';
import { CONFIG } from '@sitemaps/core';
import { TenantSlots } from '../common/tenant-slots';
import { SchemaLanes } from './schema-lanes';
import type { ValidationView } from './validate.schemas';

/** Read at most this much of a document: a valid one is 50 MiB uncompressed, less gzipped. */
export const MAX_DOCUMENT_BYTES = MAX_BYTES_PER_FILE;

/**
 * The sitemap-xml lib's validator behind the API: an uploaded document, or one fetched with the
 * import's SSRF-safe client. Each tenant has API_VALIDATIONS_PER_TENANT validations at once and
 * the process API_VALIDATIONS_PENDING in all (429 past either, before a body is read); their
 * schema passes take turns by size (schema-lanes), so nobody's small check waits behind
 * someone's 50 MiB file.
 */
@Injectable()
export class ValidateService {
  private readonly logger = new Logger('validate');
  private readonly slots: TenantSlots;
  private readonly lanes = new SchemaLanes();

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(API_LIMITS) { validations }: ApiLimits,
  ) {
    this.slots = new TenantSlots({
      perTenant: validations.perTenant,
      total: validations.pending,
      code: 'VALIDATIONS_BUSY',
      what: 'validations',
      perTenantSetting: 'API_VALIDATIONS_PER_TENANT',
      totalSetting: 'API_VALIDATIONS_PENDING',
    });
  }

  validateUpload(tenantId: string, body: Readable): Promise<ValidationView> {
    return this.slots.run(tenantId, async () => {
      const content = await readBounded(body, 'the upload');
      return viewOf(await validateSitemapSet({ name: 'upload', content }, { admit: this.lanes.admit }));
    });
  }

  validateUrl(tenantId: string, url: string, follow: boolean): Promise<ValidationView> {
    return this.slots.run(tenantId, async () => {
      const load = (target: string): Promise<SitemapSource> => this.fetch(target);
      const root = await load(url).catch((error: unknown) => {
        if (!(error instanceof FetchRefusedError)) throw error;
        if (error.detail) this.logger.warn(`validate ${redactUrl(url)} refused: ${error.detail}`);
        throw new DomainError(error.code === 'TOO_LARGE' ? 'too_large' : 'invalid', error.code, error.message);
      });
      return viewOf(await validateSitemapSet(root, { follow, load, concurrency: 2, admit: this.lanes.admit }));
    });
  }

  private async fetch(url: string): Promise<SitemapSource> {
    const { maxRedirects, requestTimeoutMs, allowPrivateAddresses } = this.config.import;
    const signal = AbortSignal.timeout(this.config.import.timeoutMs);
    const fetched = await fetchUrl(url, { allowPrivateAddresses, maxRedirects, requestTimeoutMs }, signal);
    return { name: url, content: await readBounded(fetched.body, url) };
  }
}

function viewOf(reports: FileReport[]): ValidationView {
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
