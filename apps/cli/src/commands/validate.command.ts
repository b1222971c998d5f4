import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { formatProblem, validateSitemapSet, type FileReport, type SitemapSource } from '@sitemaps/sitemap-xml';
import { CliError, EXIT, type CliContext } from '../cli-context';

/** Larger than any valid file (50 MiB uncompressed, so less gzipped): enough to say it is too large. */
const MAX_DOWNLOAD_BYTES = 128 * 1024 * 1024;

async function load(target: string): Promise<SitemapSource> {
  if (!/^https?:\/\//i.test(target)) {
    const content = await readFile(target).catch(() => {
      throw new CliError(`${target}: no such file`, EXIT.usage, 'USAGE');
    });
    return { name: target, content };
  }
  const response = await fetch(target, {
    redirect: 'follow',
    signal: AbortSignal.timeout(60_000),
    headers: { 'accept-encoding': 'gzip' },
  }).catch((error: Error) => {
    throw new CliError(
      `${target}: ${(error.cause as Error | undefined)?.message ?? error.message}`,
      EXIT.unreachable,
      'UNREACHABLE',
    );
  });
  if (!response.ok) throw new CliError(`${target}: HTTP ${response.status}`, EXIT.failed, 'FETCH_FAILED');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of Readable.fromWeb((response.body ?? new Blob().stream()) as WebReadableStream<Uint8Array>)) {
    size += (chunk as Buffer).length;
    if (size > MAX_DOWNLOAD_BYTES)
      throw new CliError(`${target}: larger than ${MAX_DOWNLOAD_BYTES} bytes`, EXIT.failed, 'TOO_LARGE');
    chunks.push(chunk as Buffer);
  }
  return { name: target, content: Buffer.concat(chunks) };
}

export function validateCommand(program: Command, context: () => CliContext): void {
  program
    .command('validate <fileOrUrl>')
    .description(
      "check a sitemap, sitemap index or text sitemap (.xml, .xml.gz or .txt) against the XSDs and the protocol's rules, here, with no API",
    )
    .option('--follow', 'an index: also check every sitemap it lists')
    .action(async (target: string, options: { follow?: boolean }) => {
      const ctx = context();
      const reports: FileReport[] = await validateSitemapSet(await load(target), {
        follow: options.follow ?? false,
        load,
      });
      const problems = reports.reduce((sum, report) => sum + report.problems.length, 0);
      ctx.print({ valid: problems === 0, files: reports }, () => [
        ...reports.flatMap((report) =>
          report.problems.length > 0
            ? report.problems.map(formatProblem)
            : [
                `${report.file}: valid ${report.kind} (${report.entries.toLocaleString('en-US')} entries, ${report.bytes.toLocaleString('en-US')} bytes)`,
              ],
        ),
        ...(problems > 0 ? [`${problems} problem${problems === 1 ? '' : 's'}`] : []),
      ]);
      if (problems > 0) ctx.exitCode = EXIT.failed;
    });
}
