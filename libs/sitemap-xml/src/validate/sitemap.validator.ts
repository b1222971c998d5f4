// Checks a sitemap or sitemap index as a search engine would: the published XSDs (xsd.validator)
// and the protocol's rules no schema can say (notes in ../../schemas/README.md): 50,000 entries,
// 50 MiB uncompressed, absolute <loc>s under 2,048 characters, all on one host, and an index
// that lists sitemaps only. Every problem names its file, line and rule.
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import sax from 'sax';
import { MAX_BYTES_PER_FILE, MAX_INDEX_ENTRIES, MAX_URL_LENGTH, MAX_URLS_PER_FILE } from '../limits';
import { xsdErrors, type XsdError } from './xsd.validator';

export const VALIDATION_RULES = {
  'not-a-sitemap': 'the root element is <urlset> or <sitemapindex>',
  gzip: 'a .gz file is valid gzip',
  xsd: 'the document is well-formed and valid against the published XSDs',
  'max-urls': `at most ${MAX_URLS_PER_FILE.toLocaleString('en-US')} entries per file`,
  'max-bytes': `at most ${MAX_BYTES_PER_FILE.toLocaleString('en-US')} bytes (50 MiB) uncompressed per file`,
  'loc-length': `a <loc> is under ${(MAX_URL_LENGTH + 1).toLocaleString('en-US')} characters`,
  'loc-absolute': 'a <loc> is an absolute http(s) URL',
  'one-host': "all <loc>s of a file are on one host, the site's",
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
  kind: 'urlset' | 'sitemapindex' | undefined;
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
  const kind = ROOT.exec(xml.subarray(0, 64 * 1024).toString('utf8'))?.[1] as FileReport['kind'];
  report.kind = kind;
  if (!kind) {
    problem('not-a-sitemap', 'no <urlset> or <sitemapindex> root element');
    return report;
  }
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
  let host = options.host?.toLowerCase();
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
      host = checkLoc(loc.text.trim(), loc.line, host, problem);
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

/** Checks one <loc>; returns the host the file's <loc>s must share. */
function checkLoc(
  loc: string,
  line: number,
  host: string | undefined,
  problem: (rule: ValidationRule, message: string, line?: number) => void,
): string | undefined {
  if (loc.length > MAX_URL_LENGTH)
    problem('loc-length', `<loc> of ${loc.length.toLocaleString('en-US')} characters`, line);
  let url: URL;
  try {
    url = new URL(loc);
  } catch {
    problem('loc-absolute', `<loc> ${JSON.stringify(loc.slice(0, 100))} is not an absolute URL`, line);
    return host;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problem('loc-absolute', `<loc> ${JSON.stringify(loc.slice(0, 100))} is not http(s)`, line);
    return host;
  }
  if (host === undefined) return url.host;
  if (url.host !== host) problem('one-host', `<loc> on ${url.host}, not ${host}`, line);
  return host;
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
  const root = await validateSitemapFile(source.name, source.content, options);
  const reports = [root];
  if (!options.follow || root.kind !== 'sitemapindex' || !options.load) return reports;
  const load = options.load;
  const host = options.host ?? hostOf(root.sitemaps[0]?.loc);
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
      const report = await validateSitemapFile(child.name, child.content, { host, admit: options.admit });
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

function hostOf(loc: string | undefined): string | undefined {
  try {
    return loc ? new URL(loc).host : undefined;
  } catch {
    return undefined;
  }
}

/** `file:line: [rule] message`, one line per problem. */
export function formatProblem(problem: ValidationProblem): string {
  return `${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: [${problem.rule}] ${problem.message}`;
}
