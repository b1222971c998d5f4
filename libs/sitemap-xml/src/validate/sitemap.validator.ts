// Checks a sitemap or sitemap index as a search engine would: the published XSDs (xsd.validator)
// and the protocol's rules no schema can say (notes in ../../schemas/README.md): 50,000 entries,
// 50 MiB uncompressed, absolute <loc>s under 2,048 characters, all on one host and one scheme
// (the file's own, when the file's URL is known and the host is its own), and an index that
// lists sitemaps only. A text sitemap (one URL a line, UTF-8) gets the same rules but the XSDs.
// Every problem names its file, line and rule.
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import sax from 'sax';
import { MAX_BYTES_PER_FILE, MAX_INDEX_ENTRIES, MAX_URL_LENGTH, MAX_URLS_PER_FILE } from '../limits';
import { xsdErrors, type XsdError } from './xsd.validator';

export const VALIDATION_RULES = {
  'not-a-sitemap': 'the root element is <urlset> or <sitemapindex>, or the file is a text sitemap (one URL a line)',
  'text-encoding': 'a text sitemap is UTF-8',
  gzip: 'a .gz file is valid gzip',
  xsd: 'the document is well-formed and valid against the published XSDs',
  'max-urls': `at most ${MAX_URLS_PER_FILE.toLocaleString('en-US')} entries per file`,
  'max-bytes': `at most ${MAX_BYTES_PER_FILE.toLocaleString('en-US')} bytes (50 MiB) uncompressed per file`,
  'loc-length': `a <loc> is under ${(MAX_URL_LENGTH + 1).toLocaleString('en-US')} characters`,
  'loc-absolute': 'a <loc> is an absolute http(s) URL',
  'one-host': "all <loc>s of a file are on one host, the site's",
  'one-scheme': "all <loc>s of a file use one scheme, the file's own when it is served from their host",
  'index-nested': 'an index lists sitemaps, never another index',
  fetch: 'a listed file can be fetched',
} as const;
export type ValidationRule = keyof typeof VALIDATION_RULES;

export interface ValidationProblem {
  file: string;
  line?: number;
  rule: ValidationRule;
  message: string;
}

export interface FileReport {
  file: string;
  kind: 'urlset' | 'sitemapindex' | 'text' | undefined;
  /** <url>s or <sitemap>s. */
  entries: number;
  /** Uncompressed size. */
  bytes: number;
  problems: ValidationProblem[];
  /** An index's <loc>s with their lines: what --follow fetches. */
  sitemaps: { loc: string; line: number }[];
}

export interface ValidateOptions {
  /** The host every <loc> must be on; by default the first <loc>'s. */
  host?: string;
  /** The scheme every <loc> must use (`https:`); by default the first <loc>'s. */
  scheme?: string;
  /**
   * Where the file is served, when known: <loc>s on its host must use its scheme. (A file may
   * list another host's URLs: cross-submission, which only that host's robots.txt can allow.)
   */
  url?: string;
  /**
   * Waits for room to run the schema pass (the one that costs memory: a tree of the whole
   * document) over `bytes` of uncompressed XML; returns what frees the room. Default: no wait.
   */
  admit?: (bytes: number) => Promise<() => void>;
}

/** XSD errors reported per file: the first ones say what is wrong. */
const MAX_XSD_ERRORS = 100;
const SCAN_SLICE_BYTES = 1024 * 1024;
const ROOT = /<(?:[A-Za-z_][\w.-]*:)?(urlset|sitemapindex)[\s>/]/;
/** A text sitemap starts with an absolute http(s) URL on its first non-blank line. */
const TEXT_SITEMAP = /^\s*https?:\/\/\S+[^\S\n]*(?:\r?\n|$)/i;

export async function validateSitemapFile(
  file: string,
  content: Uint8Array,
  options: ValidateOptions = {},
): Promise<FileReport> {
  const report: FileReport = { file, kind: undefined, entries: 0, bytes: content.length, problems: [], sitemaps: [] };
  const problem = (rule: ValidationRule, message: string, line?: number) =>
    report.problems.push({ file, ...(line === undefined ? {} : { line }), rule, message });
  let xml = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (xml[0] === 0x1f && xml[1] === 0x8b) {
    const inflated = await gunzipBounded(xml, MAX_BYTES_PER_FILE);
    if (inflated instanceof Error) {
      problem('gzip', `not valid gzip: ${inflated.message}`);
      return report;
    }
    // Past the protocol's limit nothing else is looked at: the schema pass would build a tree of it all.
    if (inflated === TOO_LARGE) {
      problem('max-bytes', `more than ${MAX_BYTES_PER_FILE.toLocaleString('en-US')} bytes once decompressed`);
      return report;
    }
    xml = inflated;
    report.bytes = xml.length;
  }
  if (xml.length > MAX_BYTES_PER_FILE) {
    problem('max-bytes', `${xml.length.toLocaleString('en-US')} bytes uncompressed`);
    return report;
  }
  const head = xml.subarray(0, 64 * 1024).toString('utf8');
  const kind = ROOT.exec(head)?.[1] as 'urlset' | 'sitemapindex' | undefined;
  if (!kind) {
    if (TEXT_SITEMAP.test(head.replace(/^\uFEFF/, ''))) {
      report.kind = 'text';
      scanText({ xml, options, report, problem });
      return report;
    }
    problem('not-a-sitemap', 'no <urlset> or <sitemapindex> root element, and not a text sitemap (one URL a line)');
    return report;
  }
  report.kind = kind;
  const release = await options.admit?.(xml.length);
  let xsd: XsdError[];
  try {
    xsd = await xsdErrors(kind, xml);
  } finally {
    release?.();
  }
  for (const error of xsd.slice(0, MAX_XSD_ERRORS)) problem('xsd', error.message, error.line);
  if (xsd.length > MAX_XSD_ERRORS)
    problem('xsd', `${(xsd.length - MAX_XSD_ERRORS).toLocaleString('en-US')} more schema errors`);
  scanEntries({ xml, kind, options, report, problem });
  return report;
}

const TOO_LARGE = Symbol('too large');

/**
 * Inflates gzip as a stream and stops as soon as the output passes `maxBytes`: a bomb costs at
 * most that much memory, and the event loop is never blocked for it.
 */
function gunzipBounded(gz: Buffer, maxBytes: number): Promise<Buffer | Error | typeof TOO_LARGE> {
  return new Promise((resolve) => {
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    let size = 0;
    gunzip.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      chunks.length = 0;
      gunzip.destroy();
      resolve(TOO_LARGE);
    });
    gunzip.once('end', () => resolve(Buffer.concat(chunks)));
    gunzip.once('error', (error) => resolve(error));
    gunzip.end(gz);
  });
}

/** One streaming pass (sax, no tree) over the entries for the rules the XSDs cannot express. */
interface EntryScan {
  /** The uncompressed file. */
  xml: Buffer;
  kind: 'urlset' | 'sitemapindex';
  options: ValidateOptions;
  /** Counted into (entries, sitemaps) as the scan goes. */
  report: FileReport;
  problem: (rule: ValidationRule, message: string, line?: number) => void;
}

function scanEntries({ xml, kind, options, report, problem }: EntryScan): void {
  const entry = kind === 'urlset' ? 'url' : 'sitemap';
  const maxEntries = kind === 'urlset' ? MAX_URLS_PER_FILE : MAX_INDEX_ENTRIES;
  const locs = new LocRules(options, problem);
  const parser = sax.parser(true, { xmlns: true, position: true });
  const path: string[] = [];
  let loc: { text: string; line: number } | undefined;
  parser.onopentag = (node) => {
    const name = (node as sax.QualifiedTag).local;
    path.push(name);
    if (path.length === 2 && name === entry && ++report.entries === maxEntries + 1) {
      problem('max-urls', `more than ${maxEntries.toLocaleString('en-US')} <${entry}> entries`, parser.line + 1);
    }
    if (path.length === 3 && name === 'loc' && path[1] === entry) loc = { text: '', line: parser.line + 1 };
  };
  parser.ontext = parser.oncdata = (text) => {
    if (loc) loc.text += text;
  };
  parser.onclosetag = () => {
    if (path.length === 3 && loc) {
      locs.check(loc.text.trim(), loc.line);
      if (kind === 'sitemapindex') report.sitemaps.push({ loc: loc.text.trim(), line: loc.line });
      loc = undefined;
    }
    path.pop();
  };
  // Not well-formed: the XSD pass has said where.
  parser.onerror = () => {
    throw new StopScan();
  };
  // In slices: a 50 MiB file never becomes one 50 MiB (or, with one non-Latin-1 character, 100 MB) string.
  const decoder = new StringDecoder('utf8');
  try {
    for (let offset = 0; offset < xml.length; offset += SCAN_SLICE_BYTES)
      parser.write(decoder.write(xml.subarray(offset, offset + SCAN_SLICE_BYTES)));
    parser.write(decoder.end()).close();
  } catch (error) {
    if (!(error instanceof StopScan)) throw error;
  }
}

class StopScan extends Error {}

/**
 * The rules every <loc> (or text line) of a file meets: length, an absolute http(s) URL, one
 * host, one scheme, and the file's own scheme on the file's own host.
 */
class LocRules {
  private host: string | undefined;
  private scheme: string | undefined;
  private readonly served: { host: string; scheme: string } | undefined;
  private servedSchemeReported = false;

  constructor(
    options: ValidateOptions,
    private readonly problem: (rule: ValidationRule, message: string, line?: number) => void,
  ) {
    this.host = options.host?.toLowerCase();
    this.scheme = options.scheme?.toLowerCase();
    const served = httpUrl(options.url);
    this.served = served && { host: served.host, scheme: served.protocol };
  }

  check(loc: string, line: number): void {
    const { problem } = this;
    if (loc.length > MAX_URL_LENGTH)
      problem('loc-length', `<loc> of ${loc.length.toLocaleString('en-US')} characters`, line);
    const url = /\s/.test(loc) ? undefined : httpUrl(loc);
    if (!url) {
      problem('loc-absolute', `<loc> ${JSON.stringify(loc.slice(0, 100))} is not an absolute http(s) URL`, line);
      return;
    }
    this.host ??= url.host;
    this.scheme ??= url.protocol;
    if (url.host !== this.host) problem('one-host', `<loc> on ${url.host}, not ${this.host}`, line);
    else if (url.protocol !== this.scheme)
      problem('one-scheme', `<loc> is ${url.protocol}, the file's other <loc>s are ${this.scheme}`, line);
    const served = this.served;
    if (served && url.host === served.host && url.protocol !== served.scheme && !this.servedSchemeReported) {
      this.servedSchemeReported = true;
      problem(
        'one-scheme',
        `<loc> is ${url.protocol} on the host the file is served from over ${served.scheme}: crawlers treat them as two sites`,
        line,
      );
    }
  }
}

/** A text sitemap: UTF-8, one absolute URL a line (blank lines aside), the same limits. */
function scanText({ xml, options, report, problem }: Omit<EntryScan, 'kind'>): void {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(xml);
  } catch {
    problem('text-encoding', 'not valid UTF-8');
    return;
  }
  const locs = new LocRules(options, problem);
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let index = 0; index < lines.length; index++) {
    const loc = (lines[index] as string).trim();
    if (loc === '') continue;
    if (++report.entries === MAX_URLS_PER_FILE + 1)
      problem('max-urls', `more than ${MAX_URLS_PER_FILE.toLocaleString('en-US')} URLs`, index + 1);
    locs.check(loc, index + 1);
  }
}

/** `text` as a URL when it is an absolute http(s) one. */
function httpUrl(text: string | undefined): URL | undefined {
  if (text === undefined) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

export interface SitemapSource {
  /** What a problem names: a path or a URL. */
  name: string;
  content: Uint8Array;
}

export interface ValidateSetOptions extends ValidateOptions {
  /** Also validate every sitemap an index lists, and check none is an index. */
  follow?: boolean;
  /** Fetches a listed sitemap (required with `follow`). */
  load?: (loc: string) => Promise<SitemapSource>;
  /** Listed files fetched at once. */
  concurrency?: number;
}

/** A file and, with `follow`, every sitemap its index lists, on the index's host. */
export async function validateSitemapSet(
  source: SitemapSource,
  options: ValidateSetOptions = {},
): Promise<FileReport[]> {
  const root = await validateSitemapFile(source.name, source.content, { ...options, url: options.url ?? source.name });
  const reports = [root];
  if (!options.follow || root.kind !== 'sitemapindex' || !options.load) return reports;
  const load = options.load;
  const first = httpUrl(root.sitemaps[0]?.loc);
  const host = options.host ?? first?.host;
  const scheme = options.scheme ?? first?.protocol;
  const queue = [...root.sitemaps];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { loc, line } = next;
      let child: SitemapSource;
      try {
        child = await load(loc);
      } catch (error) {
        root.problems.push({ file: root.file, line, rule: 'fetch', message: `${loc}: ${(error as Error).message}` });
        continue;
      }
      const report = await validateSitemapFile(child.name, child.content, {
        host,
        scheme,
        url: child.name,
        admit: options.admit,
      });
      if (report.kind === 'sitemapindex') {
        report.problems.push({
          file: root.file,
          line,
          rule: 'index-nested',
          message: `${loc} is itself a sitemap index`,
        });
      }
      reports.push(report);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return reports;
}

/** `file:line: [rule] message`, one line per problem. */
export function formatProblem(problem: ValidationProblem): string {
  return `${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: [${problem.rule}] ${problem.message}`;
}
