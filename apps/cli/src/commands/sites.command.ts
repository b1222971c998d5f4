import type { Command } from 'commander';
import { unwrap, type Schemas, type SitemapsClient } from '@sitemaps/client';
import { CliError, EXIT, type CliContext } from '../cli-context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE = 1_000;

/** Every site of the tenant, page by page. */
export async function allSites(api: SitemapsClient): Promise<Schemas['Site'][]> {
  const sites: Schemas['Site'][] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(
      api.GET('/v1/sites', { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } }),
    );
    sites.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return sites;
}

/** A site named by its id or its hostname. */
export async function resolveSite(api: SitemapsClient, ref: string): Promise<Schemas['Site']> {
  if (UUID.test(ref)) return unwrap(api.GET('/v1/sites/{siteId}', { params: { path: { siteId: ref } } }));
  const hostname = ref.toLowerCase().replace(/\.$/, '');
  const site = (await allSites(api)).find((candidate) => candidate.hostname === hostname);
  if (!site)
    throw new CliError(`no site "${ref}" for this key (sitemaps sites list shows them)`, EXIT.failed, 'SITE_NOT_FOUND');
  return site;
}

function verificationOf(site: Schemas['Site']): string {
  return site.verification.status;
}

export function sitesCommand(program: Command, context: () => CliContext): void {
  const sites = program.command('sites').description('list, create and verify sites');

  sites
    .command('list')
    .description("the key's sites")
    .action(async () => {
      const ctx = context();
      const list = await allSites(await ctx.client());
      ctx.print(list, () =>
        list.length === 0
          ? 'no sites yet: sitemaps sites create <hostname>'
          : list.map((site) =>
              [site.hostname.padEnd(40), site.scheme.padEnd(6), verificationOf(site).padEnd(10), site.id]
                .join(' ')
                .trimEnd(),
            ),
      );
    });

  sites
    .command('create <hostname>')
    .description('register a site')
    .option('--scheme <scheme>', 'http or https', 'https')
    .action(async (hostname: string, options: { scheme: string }) => {
      const ctx = context();
      if (options.scheme !== 'http' && options.scheme !== 'https')
        throw new CliError('--scheme must be http or https', EXIT.usage, 'USAGE');
      const site = await unwrap((await ctx.client()).POST('/v1/sites', { body: { hostname, scheme: options.scheme } }));
      ctx.print(site, () => [`created ${site.hostname} (${site.id})`, `sitemap: ${site.sitemapUrl}`]);
    });

  sites
    .command('verify <site>')
    .description('check the hostname proof of a site (id or hostname) again now')
    .action(async (ref: string) => {
      const ctx = context();
      const api = await ctx.client();
      const site = await resolveSite(api, ref);
      const verified = await unwrap(api.POST('/v1/sites/{siteId}/verify', { params: { path: { siteId: site.id } } }));
      const { verification } = verified;
      ctx.print(verified, () =>
        verification.status === 'verified'
          ? `${verified.hostname}: verified`
          : [
              `${verified.hostname}: ${verification.status}; a check is queued (sitemaps sites list shows the outcome)`,
              `  prove it with a DNS record: ${verification.dnsRecord.name} ${verification.dnsRecord.type} "${verification.dnsRecord.value}"`,
              `  or serve the token at ${verification.fileUrl}`,
            ],
      );
    });

  sites
    .command('stale-after <site> <days>')
    .description(
      'send sitemap.stale when a changed shard of a site (id or hostname) stays unread by every verified crawler this many days (1-365), or "off"',
    )
    .action(async (ref: string, value: string) => {
      const ctx = context();
      const days = value === 'off' ? null : Number(value);
      if (days !== null && (!Number.isInteger(days) || days < 1 || days > 365))
        throw new CliError('<days> must be a whole number from 1 to 365, or off', EXIT.usage, 'USAGE');
      const api = await ctx.client();
      const site = await resolveSite(api, ref);
      const updated = await unwrap(
        api.PATCH('/v1/sites/{siteId}', { params: { path: { siteId: site.id } }, body: { staleAfterDays: days } }),
      );
      ctx.print(updated, () =>
        updated.staleAfterDays === null
          ? `${updated.hostname}: sitemap.stale off`
          : `${updated.hostname}: sitemap.stale after ${updated.staleAfterDays} days unread`,
      );
    });

  sites
    .command('crawls <site>')
    .description('what search engines read of a site (id or hostname), and which changed files wait for them')
    .option('--days <n>', 'days of fetch counts', '30')
    .action(async (ref: string, options: { days: string }) => {
      const ctx = context();
      const days = Number(options.days);
      if (!Number.isInteger(days) || days < 1 || days > 366)
        throw new CliError('--days must be a whole number from 1 to 366', EXIT.usage, 'USAGE');
      const api = await ctx.client();
      const site = await resolveSite(api, ref);
      const insight = await unwrap(
        api.GET('/v1/sites/{siteId}/crawls', { params: { path: { siteId: site.id }, query: { days } } }),
      );
      ctx.print(insight, () => [
        insight.crawlers.length === 0
          ? `${site.hostname}: no verified crawler has read the index yet`
          : `${site.hostname}: index read by ${insight.crawlers.map((c) => `${c.crawler} (last ${String(c.lastReadAt)})`).join(', ')}`,
        ...insight.files.map((file) =>
          [
            `  ${file.path.padEnd(40)}`,
            file.reads.map((read) => `${read.crawler} ${String(read.lastReadAt)}`).join(', ') || 'never read',
            file.waitingFor.length > 0 ? `  waiting for ${file.waitingFor.join(', ')}` : '',
          ]
            .join(' ')
            .trimEnd(),
        ),
        ...insight.errors.map(
          (error) =>
            `  ${error.status} ${error.path} to ${error.crawler}${error.verified ? '' : ' (unverified)'} x${error.fetches}`,
        ),
      ]);
    });
}
