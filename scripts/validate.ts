// npm run validate -- [--follow] <file|url> [...]
// Checks sitemaps and sitemap indexes (.xml or .xml.gz) against the published XSDs and the
// protocol's rules (libs/sitemap-xml/src/validate); with --follow, also every sitemap an index
// lists. Prints one line per problem (file:line: [rule] message) and exits 1 on any, 2 on misuse.
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { formatProblem, validateSitemapSet, type SitemapSource } from '@sitemaps/sitemap-xml';

/** Larger than any valid file (50 MiB uncompressed, so less gzipped): enough to say it is too large. */
const MAX_DOWNLOAD_BYTES = 128 * 1024 * 1024;
const USAGE = 'usage: npm run validate -- [--follow] <file|url> [...]';

async function load(target: string): Promise<SitemapSource> {
  if (!/^https?:\/\//i.test(target)) return { name: target, content: await readFile(target) };
  const response = await fetch(target, {
    redirect: 'follow',
    signal: AbortSignal.timeout(60_000),
    headers: { 'accept-encoding': 'gzip' },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  if (!response.body) return { name: target, content: Buffer.alloc(0) };
  for await (const chunk of Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>)) {
    size += (chunk as Buffer).length;
    if (size > MAX_DOWNLOAD_BYTES) throw new Error(`larger than ${MAX_DOWNLOAD_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return { name: target, content: Buffer.concat(chunks) };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const follow = args.includes('--follow');
  const targets = args.filter((arg) => arg !== '--follow');
  const unknown = targets.find((arg) => arg.startsWith('-'));
  if (targets.length === 0 || unknown) {
    console.error(unknown ? `unknown option ${unknown}\n${USAGE}` : USAGE);
    return 2;
  }
  let problems = 0;
  for (const target of targets) {
    let source: SitemapSource;
    try {
      source = await load(target);
    } catch (error) {
      console.log(`${target}: [fetch] ${(error as Error).message}`);
      problems++;
      continue;
    }
    for (const report of await validateSitemapSet(source, { follow, load })) {
      for (const problem of report.problems) console.log(formatProblem(problem));
      problems += report.problems.length;
      if (report.problems.length === 0)
        console.log(
          `${report.file}: valid ${report.kind} (${report.entries.toLocaleString('en-US')} entries, ${report.bytes.toLocaleString('en-US')} bytes)`,
        );
    }
  }
  if (problems > 0) console.log(`${problems} problem${problems === 1 ? '' : 's'}`);
  return problems > 0 ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  },
);
