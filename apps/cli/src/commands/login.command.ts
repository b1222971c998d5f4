import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { createSitemapsClient, unwrap } from '@sitemaps/client';
import { CliError, EXIT, type CliContext } from '../cli-context';

const DEFAULT_API_URL = 'http://127.0.0.1:3000';

/** A line from stdin: piped (`echo $KEY | sitemaps login`), or typed at a prompt. */
async function readKey(ctx: CliContext): Promise<string> {
  if (ctx.io.stdin.isTTY) ctx.io.stderr.write('API key: ');
  const lines = createInterface({ input: ctx.io.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line.trim();
  }
  return '';
}

export function loginCommand(program: Command, context: () => CliContext): void {
  program
    .command('login')
    .description('check a tenant API key against the API and keep it (mode 600) for the other commands')
    .option('--api-url <url>', `the admin API (default: SITEMAPS_API_URL, the stored one, or ${DEFAULT_API_URL})`)
    .option('--key <key>', 'the key (default: read from stdin, so it stays out of the shell history)')
    .action(async (options: { apiUrl?: string; key?: string }) => {
      const ctx = context();
      const apiUrl = options.apiUrl ?? ctx.env.apiUrl ?? (await ctx.readConfig())?.apiUrl ?? DEFAULT_API_URL;
      if (!/^https?:\/\/[^/]/.test(apiUrl))
        throw new CliError(`--api-url must be an http(s) URL, not "${apiUrl}"`, EXIT.usage, 'USAGE');
      const apiKey = options.key ?? (await readKey(ctx));
      if (!apiKey) throw new CliError('no key given: pass --key or pipe it on stdin', EXIT.usage, 'USAGE');
      const api = createSitemapsClient({ baseUrl: apiUrl, apiKey, userAgent: 'sitemaps-cli' });
      // Any tenant key may list sites; the platform key may not (it administers tenants only).
      const sites = await unwrap(api.GET('/v1/sites', { params: { query: { limit: 1 } } }));
      await ctx.writeConfig({ apiUrl, apiKey });
      ctx.print(
        { apiUrl, configFile: ctx.env.configFile, sites: sites.items.length },
        () => `logged in to ${apiUrl}; key kept in ${ctx.env.configFile}`,
      );
    });
}
