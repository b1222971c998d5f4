import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { unwrap, type Schemas, type SitemapsClient } from '@sitemaps/client';
import { CliError, EXIT, type CliContext } from '../cli-context';
import { resolveSite } from './sites.command';

/** Rejected lines shown after an import; the rest are at GET …/imports/{importId}/rejections. */
const REJECTIONS_SHOWN = 20;

/** `urls.ndjson`, `urls.csv.gz` → the format and whether the bytes are gzipped. */
export function uploadFormat(file: string): { format: 'ndjson' | 'csv'; contentType: string; gzip: boolean } {
  const name = path.basename(file).toLowerCase();
  const gzip = name.endsWith('.gz');
  const base = gzip ? name.slice(0, -3) : name;
  if (base.endsWith('.ndjson') || base.endsWith('.jsonl'))
    return { format: 'ndjson', contentType: 'application/x-ndjson', gzip };
  if (base.endsWith('.csv')) return { format: 'csv', contentType: 'text/csv', gzip };
  throw new CliError(`${file}: name it .ndjson or .csv (optionally .gz) so its format is known`, EXIT.usage, 'USAGE');
}

/** One file to upload into a site's URLs. */
interface FileImport {
  siteId: string;
  file: string;
  mode: 'upsert' | 'replace';
}

async function importFile(ctx: CliContext, api: SitemapsClient, { siteId, file, mode }: FileImport) {
  const { format, contentType, gzip } = uploadFormat(file);
  const size = (
    await stat(file).catch(() => {
      throw new CliError(`${file}: no such file`, EXIT.usage, 'USAGE');
    })
  ).size;
  const bar =
    ctx.io.stderr.isTTY && !ctx.json
      ? new SingleBar({
          stream: ctx.io.stderr,
          format: 'uploading [{bar}] {percentage}% {value}/{total} bytes',
          hideCursor: true,
        })
      : undefined;
  bar?.start(size, 0);
  let sent = 0;
  const counted = createReadStream(file).pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sent += chunk.length;
        bar?.update(sent);
        done(null, chunk);
      },
    }),
  );
  try {
    return (await unwrap(
      api.POST('/v1/sites/{siteId}/urls/import', {
        params: { path: { siteId }, query: { mode, format } },
        // The file streams as it is read; openapi-fetch passes it on untouched.
        body: Readable.toWeb(counted) as unknown as string,
        bodySerializer: (body: unknown) => body,
        headers: { 'content-type': contentType, ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
        duplex: 'half',
      } as never),
    )) as Schemas['ImportResult'];
  } finally {
    bar?.stop();
  }
}

export function urlsCommand(program: Command, context: () => CliContext): void {
  const urls = program.command('urls').description('import and look up URLs');

  urls
    .command('import <site> <file>')
    .description('upload a .ndjson or .csv file (optionally .gz) of URL entries; prints the rejected lines')
    .option('--replace', "delete the site's URLs absent from the file once it is in")
    .action(async (ref: string, file: string, options: { replace?: boolean }) => {
      const ctx = context();
      const api = await ctx.client();
      const site = await resolveSite(api, ref);
      const result = await importFile(ctx, api, {
        siteId: site.id,
        file,
        mode: options.replace ? 'replace' : 'upsert',
      });
      const rejections =
        result.rejected > 0
          ? (
              await unwrap(
                api.GET('/v1/sites/{siteId}/imports/{importId}/rejections', {
                  params: { path: { siteId: site.id, importId: result.importId }, query: { limit: REJECTIONS_SHOWN } },
                }),
              )
            ).items
          : [];
      ctx.print({ ...result, rejections }, () => [
        `${result.status}: ${result.linesRead.toLocaleString('en-US')} lines read, ${result.stored.toLocaleString('en-US')} stored ` +
          `(${result.changed.toLocaleString('en-US')} changed), ${result.rejected.toLocaleString('en-US')} rejected` +
          (result.deleted > 0 ? `, ${result.deleted.toLocaleString('en-US')} deleted` : ''),
        ...rejections.map((r) => `  line ${r.line}: ${r.field ? `${r.field}: ` : ''}${r.reason} (${r.code})`),
        ...(result.rejected > rejections.length
          ? [
              `  … ${(result.rejected - rejections.length).toLocaleString('en-US')} more: GET /v1/sites/${site.id}/imports/${result.importId}/rejections`,
            ]
          : []),
      ]);
      if (result.status === 'failed') throw new CliError('the import failed', EXIT.failed, 'IMPORT_FAILED');
      if (result.rejected > 0) ctx.exitCode = EXIT.rejected;
    });

  urls
    .command('export <site> [file]')
    .description("write the site's URLs as NDJSON import lines to a file (.ndjson, or .ndjson.gz gzipped) or stdout")
    .option('--changed-since <instant>', 'only URLs changed at or after this ISO 8601 instant')
    .action(async (ref: string, file: string | undefined, options: { changedSince?: string }) => {
      const ctx = context();
      const api = await ctx.client();
      const site = await resolveSite(api, ref);
      if (options.changedSince !== undefined && Number.isNaN(Date.parse(options.changedSince)))
        throw new CliError('--changed-since: expected an ISO 8601 instant', EXIT.usage, 'USAGE');
      const body = (await unwrap(
        api.GET('/v1/sites/{siteId}/urls/export', {
          params: {
            path: { siteId: site.id },
            query: options.changedSince !== undefined ? { changedSince: options.changedSince } : {},
          },
          parseAs: 'stream',
        }),
      )) as unknown as ReadableStream<Uint8Array> | null;
      if (!body) throw new CliError('the API sent no body', EXIT.failed, 'EMPTY_EXPORT');
      const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
      if (file === undefined || file === '-') {
        await pipeline(source, ctx.io.stdout, { end: false });
        return;
      }
      let lines = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          for (const byte of chunk) if (byte === 0x0a) lines++;
          done(null, chunk);
        },
      });
      const target = createWriteStream(file);
      if (file.toLowerCase().endsWith('.gz')) await pipeline(source, counted, createGzip(), target);
      else await pipeline(source, counted, target);
      ctx.print(
        { siteId: site.id, file, urls: lines },
        () => `${lines.toLocaleString('en-US')} URLs written to ${file}`,
      );
    });

  urls
    .command('get <site> <loc>')
    .description('one URL as stored and published: lastmod, alternates (its hreflang cluster), images, videos, news')
    .action(async (ref: string, loc: string) => {
      const ctx = context();
      const api = await ctx.client();
      const site = await resolveSite(api, ref);
      const url = await findUrl(api, site.id, loc);
      if (!url) throw new CliError(`no URL ${loc} on ${site.hostname}`, EXIT.failed, 'URL_NOT_FOUND');
      ctx.print(url, () => [
        url.loc,
        `  lastmod     ${url.lastmod ?? '-'}`,
        `  changefreq  ${url.changefreq ?? '-'}   priority ${url.priority ?? '-'}   section ${url.section ?? '(default)'}`,
        ...(url.alternates.length > 0
          ? ['  alternates', ...url.alternates.map((a) => `    ${a.hreflang.padEnd(10)} ${a.href}`)]
          : []),
        ...(url.images.length > 0 ? ['  images', ...url.images.map((image) => `    ${image.loc}`)] : []),
        ...(url.videos.length > 0
          ? ['  videos', ...url.videos.map((video) => `    ${video.title}: ${video.contentLoc ?? video.playerLoc}`)]
          : []),
        ...(url.news
          ? [`  news        ${url.news.publicationName}: ${url.news.title} (${url.news.publicationDate})`]
          : []),
        `  updated     ${url.updatedAt}`,
      ]);
    });
}

/** The URL with exactly this loc: the list by prefix holds it, maybe after longer locs. */
async function findUrl(api: SitemapsClient, siteId: string, loc: string): Promise<Schemas['Url'] | undefined> {
  let cursor: string | undefined;
  do {
    const page = await unwrap(
      api.GET('/v1/sites/{siteId}/urls', {
        params: { path: { siteId }, query: { prefix: loc, limit: 1_000, ...(cursor ? { cursor } : {}) } },
      }),
    );
    const found = page.items.find((url) => url.loc === loc);
    if (found) return found;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return undefined;
}
