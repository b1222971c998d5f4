import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { connectionArgs } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ConnectionArgs, connectionComplexity, connectionOf } from '../graphql/connection.model';
import {
  CreatedWebhookModel,
  CreateWebhookInput,
  UpdateWebhookInput,
  WebhookConnection,
  WebhookDeliveryConnection,
  WebhookDeliveryModel,
  WebhookModel,
} from './webhook.model';
import { createWebhookInput, updateWebhookInput } from './webhook.schemas';
import { WebhooksService } from './webhooks.service';

/** GraphQL null means "absent" for the optional inputs, as omitting them does in REST. */
const withoutNulls = (input: object) =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));

@Resolver(() => WebhookModel)
export class WebhooksResolver {
  constructor(private readonly webhooksService: WebhooksService) {}

  @Query(() => WebhookConnection, { nullable: true, complexity: connectionComplexity })
  async webhooks(@TenantId() tenantId: string, @Args() args: ConnectionArgs) {
    return connectionOf(await this.webhooksService.list(tenantId, parseInput(connectionArgs, args, 'arguments')), args);
  }

  @Query(() => WebhookModel, { nullable: true })
  webhook(@TenantId() tenantId: string, @Args('id', { type: () => ID }) id: string) {
    return this.webhooksService.get(tenantId, id);
  }

  @Mutation(() => CreatedWebhookModel, {
    nullable: true,
    description: 'the secret is generated when not given, and shown only in this answer',
  })
  @RequireScope('admin')
  createWebhook(
    @TenantId() tenantId: string,
    @Args('input', { type: () => CreateWebhookInput }) input: CreateWebhookInput,
  ) {
    return this.webhooksService.create(tenantId, parseInput(createWebhookInput, withoutNulls(input), 'input'));
  }

  @Mutation(() => WebhookModel, { nullable: true })
  @RequireScope('admin')
  updateWebhook(
    @TenantId() tenantId: string,
    @Args('id', { type: () => ID }) id: string,
    @Args('input', { type: () => UpdateWebhookInput }) input: UpdateWebhookInput,
  ) {
    return this.webhooksService.update(tenantId, id, parseInput(updateWebhookInput, withoutNulls(input), 'input'));
  }

  @Mutation(() => Boolean, { nullable: true })
  @RequireScope('admin')
  async deleteWebhook(@TenantId() tenantId: string, @Args('id', { type: () => ID }) id: string) {
    await this.webhooksService.remove(tenantId, id);
    return true;
  }

  @Mutation(() => WebhookDeliveryModel, {
    nullable: true,
    description: 'queues a webhook.test event to the endpoint, even a disabled one',
  })
  @RequireScope('admin')
  sendWebhookTest(@TenantId() tenantId: string, @Args('id', { type: () => ID }) id: string) {
    return this.webhooksService.sendTest(tenantId, id);
  }

  @ResolveField(() => WebhookDeliveryConnection, {
    complexity: connectionComplexity,
    description: 'the delivery log, newest first',
  })
  async deliveries(@TenantId() tenantId: string, @Parent() webhook: WebhookModel, @Args() args: ConnectionArgs) {
    return connectionOf(
      await this.webhooksService.deliveries(tenantId, webhook.id, parseInput(connectionArgs, args, 'arguments')),
      args,
    );
  }
}
