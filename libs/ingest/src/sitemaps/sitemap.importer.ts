// Imports a site's existing sitemaps: from a robots.txt (its Sitemap: lines) or a sitemap or
// sitemap index URL, following index files breadth-first down to `maxDepth` levels of nesting.
// Every entry goes through the same preparer and batch writer as an upload. Files that cannot
// be read (refused address, HTTP error, too large, not a sitemap, over the file or depth limit)
// are reported as rejections with line 0 and the file's URL; only when the starting URL itself
// cannot be read does the import fail. Every file is decompressed by decompressBounded: its
// limits count the bytes after every layer (Content-Encoding, then a .gz file), and the ratio.
import { pipeline, Readable } from 'node:stream';
import { MAX_URL_LENGTH } from '@sitemaps/sitemap-xml';
import { DecompressionError, decompressBounded } from '../bounded-decompression';
import type { ImportIssue, ImportItem, ImportProgress } from '../imports/import.types';
import type { ImportSession, UrlImportService } from '../imports/url-import.service';
import type { IngestSite } from '../url-entry.preparer';
import { sitemapLinesOfRobotsTxt } from './robots-txt.reader';
import { asRefusal, ByteBudget, fetchUrl, FetchRefusedError, type FetchedBody, type FetchPolicy } from './safe-fetch';
import { HreflangInference } from './hreflang-inference';
import {
  InvalidXmlError,
  NotASitemapError,
  openSitemapDocument,
  type SitemapDocument,
} from './sitemap-document.reader';
import { entryOfRawUrl } from './sitemap-entry.mapper';
import { UnsupportedEncodingError } from './xml-encoding';

export interface SitemapImportLimits extends FetchPolicy {
  /** Per file, uncompressed: counted after every decompression layer. */
  maxFileBytes: number;
  /** Decompressed bytes per byte received (IMPORT_MAX_COMPRESSION_RATIO), as for uploads. */
  maxCompressionRatio: number;
  maxTotalBytes: number;
  maxFiles: number;
  /** Levels of index nesting followed: 0 reads only what the start URL names. */
  maxDepth: number;
  timeoutMs: number;
}

const ROBOTS_MAX_BYTES = 512 * 1024;

/** A failure of the import itself (database), as opposed to one file's. */
class SessionFailure extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

export class SitemapImporter {
  constructor(
    private readonly imports: UrlImportService,
    private readonly limits: SitemapImportLimits,
  ) {}

  /** Runs a queued import to its end; null when there is nothing to do (done, gone, or running elsewhere). */
  async run(site: IngestSite, importId: string): Promise<ImportProgress | null> {
    const claimed = await this.imports.resume(site, importId);
    if (!claimed) return null;
    const { session, sourceUrl } = claimed;
    try {
      const refusal = await new SitemapCrawl(session, this.limits).run(sourceUrl ?? '');
      if (refusal) return await session.fail(refusal, { keepPending: true });
      return await session.complete();
    } catch (error) {
      const reason = error instanceof SessionFailure ? error.reason : error;
      await session.fail(reason);
      throw reason;
    }
  }
}

class SitemapCrawl {
  private readonly signal: AbortSignal;
  private readonly budget: ByteBudget;
  private readonly seen = new Set<string>();
  private readonly queue: { url: string; depth: number }[] = [];
  private readonly inference = new HreflangInference();
  private files = 0;

  constructor(
    private readonly session: ImportSession,
    private readonly limits: SitemapImportLimits,
  ) {
    this.signal = AbortSignal.timeout(limits.timeoutMs);
    this.budget = new ByteBudget(limits.maxTotalBytes, limits.maxFileBytes);
  }

  /** Reads everything reachable; returns why, when not one file could be read. */
  async run(start: string): Promise<Refusal | undefined> {
    const refusal = await this.crawl(start);
    // Pages held back for their language, now that every page of the import has named theirs.
    for (const item of this.inference.release()) await this.push(item);
    return refusal;
  }

  private async crawl(start: string): Promise<Refusal | undefined> {
    let firstFailure: unknown;
    let filesRead = 0;
    if (isRobotsTxt(start)) {
      try {
        for (const url of await this.sitemapsOfRobots(start)) this.enqueue(url, 0);
        if (this.queue.length === 0) throw new NotASitemapError(`${start} lists no Sitemap: lines`);
      } catch (error) {
        if (error instanceof SessionFailure) throw error;
        await this.skip(start, issueOf(error, start));
        return refusalOf(error, start);
      }
    } else this.enqueue(start, 0);

    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      if (this.signal.aborted) {
        await this.skip(next.url, {
          code: 'TIMEOUT',
          field: 'sitemap',
          message: `not read: the import ran out of its ${this.limits.timeoutMs} ms`,
        });
        continue;
      }
      if (this.files >= this.limits.maxFiles) {
        await this.skip(next.url, {
          code: 'FILE_LIMIT',
          field: 'sitemap',
          message: `not read: an import reads at most ${this.limits.maxFiles} files`,
        });
        continue;
      }
      this.files += 1;
      try {
        await this.readFile(next.url, next.depth);
        filesRead += 1;
      } catch (error) {
        if (error instanceof SessionFailure) throw error;
        firstFailure ??= error;
        await this.skip(next.url, issueOf(error, next.url));
      }
    }
    return filesRead === 0 && firstFailure !== undefined ? refusalOf(firstFailure, start) : undefined;
  }

  private async readFile(url: string, depth: number): Promise<void> {
    const fetched = await fetchUrl(url, this.limits, this.signal);
    const document = await openSitemapDocument(this.decoded(fetched));
    if (document.kind === 'index') {
      let position = 0;
      for await (const loc of document.entries) {
        position += 1;
        if (loc.length > MAX_URL_LENGTH) {
          await this.push({
            line: position,
            source: url,
            issue: {
              code: 'LOC_TOO_LONG',
              field: 'sitemap',
              message: `not read: a listed sitemap's <loc> of ${loc.length.toLocaleString('en-US')} characters ("${loc.slice(0, 80)}…"); a URL is under 2,048`,
            },
          });
        } else if (depth + 1 > this.limits.maxDepth) {
          await this.skip(loc, {
            code: 'DEPTH_LIMIT',
            field: 'sitemap',
            message: `not read: listed by an index ${depth} levels deep; at most ${this.limits.maxDepth} levels are followed`,
          });
        } else this.enqueue(loc, depth + 1);
      }
      await this.noteUnknown(document, url);
      const error = document.error();
      if (error) throw new InvalidXmlError(error);
      return;
    }
    let line = 0;
    if (document.kind === 'urlset') {
      for await (const raw of document.items) {
        const { entry, warnings } = entryOfRawUrl(raw);
        const item = { line: ++line, entry, source: url, warnings };
        if (!this.inference.hold(item)) await this.push(item);
      }
      await this.noteUnknown(document, url);
      // The entries before the error are stored; the file is reported.
      const error = document.error();
      if (error) throw new InvalidXmlError(error);
    } else {
      for await (const loc of document.lines) await this.push({ line: ++line, entry: { loc }, source: url });
    }
  }

  /** Elements of the sitemap namespace the protocol does not define: the XSD refuses them, we skip them. */
  private async noteUnknown(document: Exclude<SitemapDocument, { kind: 'text' }>, url: string): Promise<void> {
    for (const { name, parent, line } of document.unknown()) {
      await this.push({
        line: 0,
        source: url,
        notice: {
          code: 'UNKNOWN_ELEMENT',
          field: name,
          message: `<${name}> in <${parent}> (first at line ${line}) is no element of the sitemap protocol: ignored`,
        },
      });
    }
  }

  private async sitemapsOfRobots(url: string): Promise<string[]> {
    const fetched = await fetchUrl(url, this.limits, this.signal);
    const chunks: Buffer[] = [];
    for await (const chunk of this.decoded(fetched, ROBOTS_MAX_BYTES)) chunks.push(chunk as Buffer);
    const base = new URL(fetched.url);
    const found: string[] = [];
    for (const { value } of sitemapLinesOfRobotsTxt(Buffer.concat(chunks).toString('utf8'))) {
      try {
        found.push(new URL(value, base).href);
      } catch {
        await this.skip(value, {
          code: 'INVALID_URL',
          field: 'sitemap',
          message: 'robots.txt lists a Sitemap: that is not a URL',
        });
      }
    }
    return found;
  }

  /** The file's bytes, every compression layer undone and bounded; `cap` replaces the file limit and the budget. */
  private decoded(fetched: FetchedBody, cap?: number): Readable {
    const { url } = fetched;
    const limits = { maxBytes: cap ?? this.limits.maxFileBytes, maxRatio: this.limits.maxCompressionRatio };
    let layers: AsyncIterable<Buffer>;
    try {
      layers = decompressBounded(fetched.body, fetched.contentEncoding, limits);
    } catch (error) {
      fetched.body.resume();
      throw refusalOfDecompression(error, url, cap === undefined ? 'IMPORT_MAX_FILE_BYTES' : 'the robots.txt limit');
    }
    const refused = (async function* () {
      try {
        yield* layers;
      } catch (error) {
        throw refusalOfDecompression(error, url, cap === undefined ? 'IMPORT_MAX_FILE_BYTES' : 'the robots.txt limit');
      }
    })();
    const meter = cap === undefined ? this.budget.meter(url) : new ByteBudget(cap, cap).meter(url);
    meter.on('error', () => undefined);
    return pipeline(Readable.from(refused), meter, () => undefined);
  }

  private enqueue(url: string, depth: number): void {
    if (this.seen.has(url)) return;
    this.seen.add(url);
    this.queue.push({ url, depth });
  }

  private skip(url: string, issue: ImportIssue): Promise<void> {
    return this.push({ line: 0, issue, source: url });
  }

  private async push(item: ImportItem): Promise<void> {
    try {
      const wait = this.session.push(item);
      if (wait) await wait;
    } catch (error) {
      throw new SessionFailure(error);
    }
  }
}

function isRobotsTxt(url: string): boolean {
  try {
    return new URL(url).pathname.toLowerCase().endsWith('/robots.txt');
  } catch {
    return false;
  }
}

type Refusal = FetchRefusedError | NotASitemapError | InvalidXmlError | UnsupportedEncodingError;

function isFileRefusal(error: unknown): error is NotASitemapError | InvalidXmlError | UnsupportedEncodingError {
  return (
    error instanceof NotASitemapError || error instanceof InvalidXmlError || error instanceof UnsupportedEncodingError
  );
}

function refusalOf(error: unknown, url: string): Refusal {
  return isFileRefusal(error) ? error : asRefusal(error, url);
}

function issueOf(error: unknown, url: string): ImportIssue {
  if (isFileRefusal(error)) return { code: error.code, field: 'sitemap', message: `${url}: ${error.message}` };
  const refusal = asRefusal(error, url);
  return { code: refusal.code, field: 'sitemap', message: refusal.message };
}

/** A decompression limit or a corrupt stream, in the codes of a fetched file. */
function refusalOfDecompression(error: unknown, url: string, limitName: string): unknown {
  if (!(error instanceof DecompressionError)) return error;
  switch (error.reason) {
    case 'unsupported':
      return new FetchRefusedError('UNSUPPORTED_CONTENT_ENCODING', `${url}: ${error.message}`);
    case 'too_large':
      return new FetchRefusedError('TOO_LARGE', `${url} is ${error.message} (${limitName})`);
    case 'ratio':
      return new FetchRefusedError(
        'COMPRESSION_RATIO_TOO_HIGH',
        `${url} ${error.message} (IMPORT_MAX_COMPRESSION_RATIO)`,
      );
    case 'corrupt':
      return new FetchRefusedError('INVALID_COMPRESSION', `${url} ${error.message}`);
  }
}
