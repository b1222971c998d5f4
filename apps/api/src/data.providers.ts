// The repositories of libs/data, each injectable by its class (`constructor(private readonly
// sites: SiteRepository)`). A repository added to createRepositories is provided here with it.
import { repositoryProviders } from '@sitemaps/data';
import { PG_POOL, PRISMA } from './api.tokens';

export const DATA_PROVIDERS = repositoryProviders({ prisma: PRISMA, pool: PG_POOL });
