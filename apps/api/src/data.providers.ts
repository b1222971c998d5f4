// The repositories of libs/data, one provider each, injected by class. A new repository is added
// here (and in the worker's data.providers.ts when the worker uses it).
import type { Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { QuotaService, SiteRepository, TenantRepository, UrlRepository, type PrismaClient } from '@sitemaps/data';
import { PG_POOL, PRISMA } from './api.tokens';

export const DATA_PROVIDERS: Provider[] = [
  { provide: QuotaService, useValue: new QuotaService() },
  { provide: UrlRepository, inject: [PG_POOL], useFactory: (pool: Pool) => new UrlRepository(pool) },
  {
    provide: SiteRepository,
    inject: [PRISMA, PG_POOL, QuotaService],
    useFactory: (prisma: PrismaClient, pool: Pool, quota: QuotaService) => new SiteRepository(prisma, pool, quota),
  },
  { provide: TenantRepository, inject: [PRISMA], useFactory: (prisma: PrismaClient) => new TenantRepository(prisma) },
];
