// The repositories of libs/data, each injectable by its class (`constructor(private readonly
// sites: SiteRepository)`). A repository added to createRepositories is provided here with it.
import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { createRepositories, REPOSITORY_CLASSES, type PrismaClient, type Repositories } from '@sitemaps/data';
import { PG_POOL, PRISMA } from './worker.tokens';

const REPOSITORIES = Symbol('REPOSITORIES');

export const DATA_PROVIDERS: Provider[] = [
  { provide: REPOSITORIES, inject: [PRISMA, PG_POOL], useFactory: (prisma: PrismaClient, pool: Pool) => createRepositories(prisma, pool) },
  ...Object.entries(REPOSITORY_CLASSES).map(([key, token]) => ({
    provide: token,
    inject: [REPOSITORIES],
    useFactory: (repositories: Repositories) => repositories[key as keyof Repositories],
  })),
];
