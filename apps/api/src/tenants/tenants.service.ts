import { Injectable } from '@nestjs/common';
import { TenantRepository, type AuditActor } from '@sitemaps/data';
import { ApiKeysService } from '../auth/api-keys.service';

@Injectable()
export class TenantsService {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly keys: ApiKeysService,
  ) {}

  /** A tenant and its first key, with the admin scope so it can make the others. */
  async create(
    input: { name: string; maxSites?: number | null | undefined; maxUrls?: number | null | undefined },
    actor: AuditActor,
  ) {
    const tenant = await this.tenants.createAudited(
      { name: input.name, maxSites: input.maxSites ?? null, maxUrls: input.maxUrls ?? null },
      actor,
    );
    const key = await this.keys.create(tenant.id, 'initial', ['admin']);
    return { id: tenant.id, name: tenant.name, apiKey: key.key };
  }
}
