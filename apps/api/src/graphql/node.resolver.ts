import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { DomainError } from '@sitemaps/domain';
import { ApiKeysService } from '../auth/api-keys.service';
import { TenantId } from '../auth/current-tenant.decorator';
import { BuildsService } from '../builds/builds.service';
import { SitesService } from '../sites/sites.service';
import { WebhooksService } from '../webhooks/webhooks.service';
import { NodeModel, type NodeTypeName, type TypedNode } from './node.model';

/**
 * Relay's `node(id:)`: any of the calling tenant's objects by its global id. Each lookup is scoped to
 * the tenant, so another tenant's id answers null, exactly as an unknown one does.
 */
@Resolver()
export class NodeResolver {
  constructor(
    private readonly sites: SitesService,
    private readonly builds: BuildsService,
    private readonly webhooks: WebhooksService,
    private readonly keys: ApiKeysService,
  ) {}

  @Query(() => NodeModel, { nullable: true, description: "one of this tenant's objects by its id; null if none" })
  async node(@TenantId() tenantId: string, @Args('id', { type: () => ID }) id: string): Promise<TypedNode | null> {
    const lookups: [NodeTypeName, () => Promise<{ id: string }>][] = [
      ['Site', () => this.sites.view(tenantId, id)],
      ['Build', () => this.builds.find(tenantId, id)],
      ['Webhook', () => this.webhooks.get(tenantId, id)],
      ['WebhookDelivery', () => this.webhooks.deliveryById(tenantId, id)],
      ['ApiKey', () => this.keys.get(tenantId, id)],
    ];
    const found = await Promise.all(lookups.map(([typename, lookup]) => typed(typename, lookup)));
    return found.find((node) => node !== null) ?? null;
  }
}

async function typed(typename: NodeTypeName, lookup: () => Promise<{ id: string }>): Promise<TypedNode | null> {
  try {
    return { ...(await lookup()), __typename: typename };
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return null;
    throw error;
  }
}
