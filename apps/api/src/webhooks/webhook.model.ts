import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionType } from '../graphql/connection.model';
import { JsonScalar } from '../graphql/json.scalar';
import { IdInputType, PayloadType } from '../graphql/relay-mutation';
import { graphqlEnum } from '../graphql/zod-graphql';
import { deliveryView, webhookView, type DeliveryView, type WebhookView } from './webhook.schemas';
import { NodeModel } from '../graphql/node.model';

export const DeliveryStatusEnum = graphqlEnum('WebhookDeliveryStatus', deliveryView.shape.status.options);
export const DisabledReasonEnum = graphqlEnum(
  'WebhookDisabledReason',
  webhookView.shape.disabledReason.unwrap().options,
  webhookView.shape.disabledReason.description,
);

@ObjectType('Webhook', { implements: () => [NodeModel] })
export class WebhookModel implements WebhookView {
  @Field(() => ID) id!: string;
  @Field(() => String) url!: string;
  @Field(() => [String]) eventTypes!: string[];
  @Field(() => Boolean) enabled!: boolean;
  @Field(() => Int, { description: 'deliveries that failed for good in a row' }) consecutiveFailures!: number;
  @Field(() => GraphQLISODateTime, { nullable: true }) disabledAt!: Date | null;
  @Field(() => DisabledReasonEnum, { nullable: true })
  disabledReason!: WebhookView['disabledReason'];
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
}

@ObjectType()
export class WebhookConnection extends ConnectionType(WebhookModel, 'Webhook') {}

@ObjectType('CreatedWebhook')
export class CreatedWebhookModel extends WebhookModel {
  @Field(() => String, { description: 'the signing secret; shown only here' }) secret!: string;
}

@ObjectType('WebhookDelivery', { implements: () => [NodeModel] })
export class WebhookDeliveryModel implements DeliveryView {
  @Field(() => ID) id!: string;
  @Field(() => ID) webhookId!: string;
  @Field(() => String, { description: 'the webhook-id header' }) eventId!: string;
  @Field(() => String) eventType!: string;
  @Field(() => DeliveryStatusEnum) status!: DeliveryView['status'];
  @Field(() => Int) attempts!: number;
  @Field(() => Int, { nullable: true }) responseStatus!: number | null;
  @Field(() => Int, { nullable: true }) latencyMs!: number | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) lastAttemptAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) finishedAt!: Date | null;
  @Field(() => JsonScalar, {
    description: 'the event as signed and sent: {id, type, timestamp, data}, as in the REST API',
  })
  event!: DeliveryView['event'];
}

@ObjectType()
export class WebhookDeliveryConnection extends ConnectionType(WebhookDeliveryModel, 'WebhookDelivery') {}

/** Field types only; the same zod schema as REST checks the values. */
@InputType()
export class CreateWebhookInput {
  @Field(() => String) url!: string;
  @Field(() => [String]) eventTypes!: string[];
  @Field(() => String, { nullable: true, description: 'generated when omitted' }) secret?: string;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean;
}

@InputType()
export class UpdateWebhookInput {
  @Field(() => ID, { description: 'the endpoint to change' }) id!: string;
  @Field(() => String, { nullable: true }) url?: string;
  @Field(() => [String], { nullable: true }) eventTypes?: string[];
  @Field(() => String, { nullable: true }) secret?: string;
  @Field(() => Boolean, { nullable: true, description: 'true re-enables an endpoint the platform disabled' })
  enabled?: boolean;
}

export const CreateWebhookPayload = PayloadType('CreateWebhook', 'webhook', () => CreatedWebhookModel);
export const UpdateWebhookPayload = PayloadType('UpdateWebhook', 'webhook', () => WebhookModel);
export const DeleteWebhookPayload = PayloadType('DeleteWebhook', 'deletedWebhookId', () => ID);
export const SendWebhookTestPayload = PayloadType('SendWebhookTest', 'delivery', () => WebhookDeliveryModel);
export const DeleteWebhookInput = IdInputType('DeleteWebhook');
export const SendWebhookTestInput = IdInputType('SendWebhookTest', 'the endpoint to send a webhook.test event to');
