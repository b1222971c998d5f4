import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { z } from 'zod';
import type { PrismaClient } from '@sitemaps/data';
import { PRISMA } from '../api.tokens';
import { ApiKeysService } from '../auth/api-keys.service';
import { PlatformOnly, RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { SCOPES, type Scope } from '../auth/principal';
import { parseInput } from '../errors/parse-input';

const createTenant = z.object({
  name: z.string().trim().min(1).max(200),
  maxSites: z.number().int().min(0).nullable().optional(),
  maxUrls: z.number().int().min(0).nullable().optional(),
});
const createKey = z.object({
  name: z.string().trim().min(1).max(200),
  scopes: z.array(z.enum(SCOPES as [Scope, ...Scope[]])).min(1).default(['read', 'write']),
});

@Controller('v1')
export class TenantsController {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly keys: ApiKeysService,
  ) {}

  /** Creates a tenant and its first key (admin scope), shown only in this response. */
  @Post('tenants')
  @PlatformOnly()
  async create(@Body() body: unknown) {
    const input = parseInput(createTenant, body);
    const tenant = await this.prisma.tenant.create({ data: { name: input.name, maxSites: input.maxSites ?? null, maxUrls: input.maxUrls ?? null } });
    const key = await this.keys.create(tenant.id, 'initial', ['admin']);
    return { id: tenant.id, name: tenant.name, apiKey: key.key };
  }

  @Post('api-keys')
  @RequireScope('admin')
  async createKey(@TenantId() tenantId: string, @Body() body: unknown) {
    const input = parseInput(createKey, body);
    const { key, ...meta } = await this.keys.create(tenantId, input.name, input.scopes);
    return { ...meta, apiKey: key };
  }

  @Get('api-keys')
  @RequireScope('admin')
  async listKeys(@TenantId() tenantId: string) {
    return { items: await this.keys.list(tenantId), nextCursor: null };
  }

  @Delete('api-keys/:keyId')
  @HttpCode(204)
  @RequireScope('admin')
  async revokeKey(@TenantId() tenantId: string, @Param('keyId') keyId: string) {
    await this.keys.revoke(tenantId, parseInput(z.uuid(), keyId, 'keyId'));
  }
}
