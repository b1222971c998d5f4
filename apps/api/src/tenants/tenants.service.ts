import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@sitemaps/data';
import { PRISMA } from '../api.tokens';
import { ApiKeysService } from '../auth/api-keys.service';

@Injectable()
export class TenantsService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly keys: ApiKeysService,
  ) {}

  /** A tenant and its first key, with the admin scope so it can make the others. */
  async create(input: { name: string; maxSites?: number | null | undefined; maxUrls?: number | null | undefined }) {
    const tenant = await this.prisma.tenant.create({ data: { name: input.name, maxSites: input.maxSites ?? null, maxUrls: input.maxUrls ?? null } });
    const key = await this.keys.create(tenant.id, 'initial', ['admin']);
    return { id: tenant.id, name: tenant.name, apiKey: key.key };
  }
}
