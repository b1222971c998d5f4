import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { connectionArgs } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ConnectionArgs, connectionComplexity, connectionOf } from '../graphql/connection.model';
import type { IdInput } from '../graphql/relay-mutation';
import {
  CreateWebhookInput,
  CreateWebhookPayload,
  DeleteWebhookInput,
  DeleteWebhookPayload,
  SendWebhookTestInput,
  SendWebhookTestPayload,
  UpdateWebhookInput,
  UpdateWebhookPayload,
  WebhookConnection,
  WebhookDeliveryConnection,
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

  @Mutation(() => CreateWebhookPayload, {
    description: 'the secret is generated when not given, and shown only in this answer',
  })
  @RequireScope('admin')
  async createWebhook(
    @TenantId() tenantId: string,
    @Args('input', { type: () => CreateWebhookInput }) input: CreateWebhookInput,
  ) {
    return {
      webhook: await this.webhooksService.create(
        tenantId,
        parseInput(createWebhookInput, withoutNulls(input), 'input'),
      ),
    };
  }

  @Mutation(() => UpdateWebhookPayload)
  @RequireScope('admin')
  async updateWebhook(
    @TenantId() tenantId: string,
    @Args('input', { type: () => UpdateWebhookInput }) { id, ...change }: UpdateWebhookInput,
  ) {
    const input = parseInput(updateWebhookInput, withoutNulls(change), 'input');
    return { webhook: await this.webhooksService.update(tenantId, id, input) };
  }

  @Mutation(() => DeleteWebhookPayload)
  @RequireScope('admin')
  async deleteWebhook(@TenantId() tenantId: string, @Args('input', { type: () => DeleteWebhookInput }) input: IdInput) {
    await this.webhooksService.remove(tenantId, input.id);
    return { deletedWebhookId: input.id };
  }

  @Mutation(() => SendWebhookTestPayload, {
    description: 'queues a webhook.test event to the endpoint, even a disabled one',
  })
  @RequireScope('admin')
  async sendWebhookTest(
    @TenantId() tenantId: string,
    @Args('input', { type: () => SendWebhookTestInput }) input: IdInput,
  ) {
    return { delivery: await this.webhooksService.sendTest(tenantId, input.id) };
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
