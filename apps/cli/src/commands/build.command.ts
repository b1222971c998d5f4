import { setTimeout as delay } from 'node:timers/promises';
import type { Command } from 'commander';
import { unwrap, type Schemas } from '@sitemaps/client';
import { CliError, EXIT, type CliContext } from '../cli-context';
import { resolveSite } from './sites.command';

const POLL_MS = 500;

function progressLine(build: Schemas['Build']): string {
  const parts = [`${build.status}`];
  if (build.status !== 'queued')
    parts.push(`${build.shardsRendered} shards rendered, ${build.shardsSkipped} unchanged`);
  if (build.status === 'published')
    parts.push(`${build.urlCount.toLocaleString('en-US')} URLs, ${build.byteSize.toLocaleString('en-US')} bytes`);
  if (build.error) parts.push(build.error);
  return parts.join(': ');
}

export function buildCommand(program: Command, context: () => CliContext): void {
  program
    .command('build <site>')
    .description('queue a build of the site (id or hostname); with --wait, follow it until it is published or fails')
    .option('--full', 're-render every shard, not only the changed ones')
    .option('--wait', 'stream its progress and exit when it ends (1 if it failed)')
    .option('--timeout <seconds>', 'with --wait: give up after this long', '600')
    .action(async (ref: string, options: { full?: boolean; wait?: boolean; timeout: string }) => {
      const ctx = context();
      const timeoutSeconds = Number(options.timeout);
      if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
        throw new CliError('--timeout must be a number of seconds', EXIT.usage, 'USAGE');
      const api = await ctx.client();
      const site = await resolveSite(api, ref);
      const queued = await unwrap(
        api.POST('/v1/sites/{siteId}/builds', {
          params: { path: { siteId: site.id } },
          body: { full: options.full ?? false },
        }),
      );
      if (!options.wait) {
        ctx.print(queued, () => `build ${queued.buildId} ${queued.status} for ${site.hostname}`);
        return;
      }
      ctx.note(`build ${queued.buildId} for ${site.hostname}`);
      const deadline = Date.now() + timeoutSeconds * 1000;
      let last = '';
      for (;;) {
        const build = await unwrap(
          api.GET('/v1/sites/{siteId}/builds/{buildId}', {
            params: { path: { siteId: site.id, buildId: queued.buildId } },
          }),
        );
        const line = progressLine(build);
        if (line !== last) ctx.note(`  ${line}`);
        last = line;
        if (build.status === 'published' || build.status === 'failed') {
          ctx.print(build, () =>
            build.status === 'published'
              ? `published ${site.sitemapUrl}`
              : `failed: ${build.error ?? 'no reason given'}`,
          );
          if (build.status === 'failed') throw new CliError(`build ${build.id} failed`, EXIT.failed, 'BUILD_FAILED');
          return;
        }
        if (Date.now() > deadline)
          throw new CliError(
            `build ${build.id} is still ${build.status} after ${timeoutSeconds} s`,
            EXIT.failed,
            'TIMEOUT',
          );
        // A person watching; the API answers polls cheaply. No push channel exists for builds.
        await delay(POLL_MS);
      }
    });
}
