// Every repository over one Prisma client and one pg pool: what apps, tests and benchmarks wire.
import type { Pool } from 'pg';
import { BuildRepository } from './builds/build.repository';
import { ManifestRepository } from './builds/manifest.repository';
import type { PrismaClient } from './generated/prisma/client';
import { ShardRepository } from './shards/shard.repository';
import { SiteOwnershipRepository } from './sites/site-ownership.repository';
import { SiteRepository } from './sites/site.repository';
import { AuditEntryRepository } from './audit/audit-entry.repository';
import { QuotaService } from './tenants/quota.service';
import { TenantRepository } from './tenants/tenant.repository';
import { UrlRepository } from './urls/url.repository';
import { UrlExclusionRepository } from './urls/url-exclusion.repository';
import { IdempotencyKeyRepository } from './idempotency/idempotency-key.repository';
import { WebhookRepository } from './webhooks/webhook.repository';
import { ApiKeyRepository } from './keys/api-key.repository';
import { ImportRepository } from './imports/import.repository';
import { IndexNowRepository } from './indexnow/indexnow.repository';
import { PersonRepository } from './people/person.repository';
import { CrawlRepository } from './crawls/crawl.repository';

export function createRepositories(prisma: PrismaClient, pool: Pool) {
  const quota = new QuotaService();
  return {
    quota,
    tenants: new TenantRepository(prisma),
    sites: new SiteRepository(prisma, pool, quota),
    urls: new UrlRepository(pool),
    urlExclusions: new UrlExclusionRepository(pool),
    shards: new ShardRepository(prisma, pool),
    builds: new BuildRepository(prisma),
    manifests: new ManifestRepository(prisma),
    siteOwnership: new SiteOwnershipRepository(prisma),
    auditEntries: new AuditEntryRepository(prisma),
    webhooks: new WebhookRepository(prisma),
    idempotencyKeys: new IdempotencyKeyRepository(prisma),
    apiKeys: new ApiKeyRepository(prisma),
    imports: new ImportRepository(prisma),
    indexNow: new IndexNowRepository(pool),
    people: new PersonRepository(prisma),
    crawls: new CrawlRepository(pool),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

/** Each repository's class, by its key in Repositories: the injection token an app provides it under. */
export const REPOSITORY_CLASSES = {
  quota: QuotaService,
  tenants: TenantRepository,
  sites: SiteRepository,
  urls: UrlRepository,
  urlExclusions: UrlExclusionRepository,
  shards: ShardRepository,
  builds: BuildRepository,
  manifests: ManifestRepository,
  siteOwnership: SiteOwnershipRepository,
  auditEntries: AuditEntryRepository,
  webhooks: WebhookRepository,
  idempotencyKeys: IdempotencyKeyRepository,
  apiKeys: ApiKeyRepository,
  imports: ImportRepository,
  indexNow: IndexNowRepository,
  people: PersonRepository,
  crawls: CrawlRepository,
} as const satisfies { [K in keyof Repositories]: abstract new (...args: never[]) => Repositories[K] };

/**
 * Dependency-injection providers (Nest's factory-provider shape) for every repository, each under
 * its class, built once from the app's Prisma client and pg pool tokens. Api and worker share it.
 * The whole set is provided under `tokens.all` when given (the API's ReadRouter takes it).
 */
export function repositoryProviders(tokens: { prisma: symbol; pool: symbol; all?: symbol }) {
  const all = tokens.all ?? Symbol('REPOSITORIES');
  return [
    {
      provide: all,
      inject: [tokens.prisma, tokens.pool],
      useFactory: (prisma: PrismaClient, pool: Pool) => createRepositories(prisma, pool),
    },
    ...Object.entries(REPOSITORY_CLASSES).map(([key, token]) => ({
      provide: token,
      inject: [all],
      useFactory: (repositories: Repositories) => repositories[key as keyof Repositories],
    })),
  ];
}
