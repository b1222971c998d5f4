import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { ApiKeysService } from '../auth/api-keys.service';
import { PlatformOnly, RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { AuditActorOf } from '../auth/audit-actor.decorator';
import type { AuditActor } from '@sitemaps/data';
import { connectionArgs } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ConnectionArgs, connectionComplexity, connectionOf } from '../graphql/connection.model';
import type { IdInput } from '../graphql/relay-mutation';
import {
  ApiKeyConnection,
  CreateApiKeyInput,
  CreateApiKeyPayload,
  CreateTenantInput,
  CreateTenantPayload,
  RevokeApiKeyInput,
  RevokeApiKeyPayload,
} from './tenant.model';
import { createApiKeyInput, createTenantInput } from './tenant.schemas';
import { TenantsService } from './tenants.service';

@Resolver()
export class TenantsResolver {
  constructor(
    private readonly tenants: TenantsService,
    private readonly keys: ApiKeysService,
  ) {}

  @Mutation(() => CreateTenantPayload, { description: 'platform key only' })
  @PlatformOnly()
  async createTenant(
    @Args('input', { type: () => CreateTenantInput }) input: CreateTenantInput,
    @AuditActorOf() actor: AuditActor,
  ) {
    return { tenant: await this.tenants.create(parseInput(createTenantInput, input, 'input'), actor) };
  }

  @Query(() => ApiKeyConnection, { nullable: true, complexity: connectionComplexity })
  @RequireScope('admin')
  async apiKeys(@TenantId() tenantId: string, @Args() args: ConnectionArgs) {
    return connectionOf(await this.keys.list(tenantId, parseInput(connectionArgs, args, 'arguments')), args);
  }

  @Mutation(() => CreateApiKeyPayload)
  @RequireScope('admin')
  async createApiKey(
    @TenantId() tenantId: string,
    @Args('input', { type: () => CreateApiKeyInput }) input: CreateApiKeyInput,
  ) {
    const { name, scopes } = parseInput(createApiKeyInput, input, 'input');
    const { key, ...meta } = await this.keys.create(tenantId, name, scopes);
    return { apiKey: { ...meta, apiKey: key } };
  }

  @Mutation(() => RevokeApiKeyPayload, { description: 'the key answers 401 from now on' })
  @RequireScope('admin')
  async revokeApiKey(@TenantId() tenantId: string, @Args('input', { type: () => RevokeApiKeyInput }) input: IdInput) {
    await this.keys.revoke(tenantId, input.id);
    return { apiKey: await this.keys.get(tenantId, input.id) };
  }
}
