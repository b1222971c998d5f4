import type { Command } from 'commander';
import { unwrap, type Schemas } from '@sitemaps/client';
import { CliError, EXIT, type CliContext } from '../cli-context';
import { resolveSite } from './sites.command';

/** `prefix:/cart/`, `glob:/*?sessionid=*`, `query:sessionid` → a rule as the API takes it. */
export function parseRule(text: string): Schemas['ExclusionRule'] {
  const colon = text.indexOf(':');
  const kind = colon < 0 ? '' : text.slice(0, colon);
  const value = text.slice(colon + 1);
  if (value === '') throw usage(text);
  switch (kind) {
    case 'prefix':
      return { kind, path: value };
    case 'glob':
      return { kind, pattern: value };
    case 'query':
      return { kind, param: value };
    default:
      throw usage(text);
  }
}

const usage = (text: string) =>
  new CliError(`${text}: write a rule as prefix:/path/, glob:/pattern/* or query:param`, EXIT.usage, 'USAGE');

const ruleText = (rule: Schemas['ExclusionRule']) =>
  rule.kind === 'prefix'
    ? `prefix:${rule.path}`
    : rule.kind === 'glob'
      ? `glob:${rule.pattern}`
      : `query:${rule.param}`;

function exclusionLines(view: Schemas['Exclusions']): string[] {
  return [
    ...(view.rules.length === 0 ? ['no exclusion rules'] : []),
    ...view.rules.map(
      (entry) => `${ruleText(entry.rule).padEnd(40)} ${entry.excludedUrls.toLocaleString('en-US')} URLs excluded`,
    ),
    `${view.flaggedUrls.toLocaleString('en-US')} URLs flagged excluded`,
  ];
}

export function exclusionsCommand(program: Command, context: () => CliContext): void {
  const exclusions = program.command('exclusions').description("keep a site's URLs out of its sitemaps, by rule");

  exclusions
    .command('show <site>')
    .description('the rules, with how many URLs each excludes')
    .action(async (ref: string) => {
      const ctx = context();
      const api = await ctx.client();
      const site = await resolveSite(api, ref);
      const view = await unwrap(api.GET('/v1/sites/{siteId}/exclusions', { params: { path: { siteId: site.id } } }));
      ctx.print(view, () => exclusionLines(view));
    });

  exclusions
    .command('set <site> [rules...]')
    .description('replace the rules (prefix:/cart/ glob:/*?sessionid=* query:sessionid); none clears them')
    .action(async (ref: string, rules: string[]) => {
      const ctx = context();
      const api = await ctx.client();
      const parsed = rules.map(parseRule);
      const site = await resolveSite(api, ref);
      const view = await unwrap(
        api.PUT('/v1/sites/{siteId}/exclusions', { params: { path: { siteId: site.id } }, body: { rules: parsed } }),
      );
      ctx.print(view, () => [
        ...exclusionLines(view),
        `${view.changed.urls.toLocaleString('en-US')} URLs changed; ${view.changed.shards.toLocaleString('en-US')} shards to rebuild`,
      ]);
    });

  program
    .command('conflicts <site>')
    .description("check the site's URLs against its robots.txt, its exclusions and the clock (before a launch)")
    .option('--limit <n>', 'conflicts listed at most', '100')
    .action(async (ref: string, options: { limit: string }) => {
      const ctx = context();
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 0) throw new CliError('--limit: a whole number', EXIT.usage, 'USAGE');
      const api = await ctx.client();
      const site = await resolveSite(api, ref);
      const report = await unwrap(
        api.GET('/v1/sites/{siteId}/conflicts', { params: { path: { siteId: site.id }, query: { limit } } }),
      );
      ctx.print(report, () => [
        `${report.checkedUrls.toLocaleString('en-US')} URLs checked, ${report.total.toLocaleString('en-US')} conflicts`,
        ...Object.entries(report.counts)
          .filter(([, n]) => (n ?? 0) > 0)
          .map(([code, n]) => `  ${code.padEnd(24)} ${(n ?? 0).toLocaleString('en-US')}`),
        ...report.conflicts.map((c) => `${c.loc}: ${c.field}: ${c.message} (${c.code})`),
        ...(report.truncated ? ['… more: --limit, or GET /v1/sites/{siteId}/conflicts'] : []),
      ]);
      if (report.total > 0) ctx.exitCode = EXIT.failed;
    });
}
