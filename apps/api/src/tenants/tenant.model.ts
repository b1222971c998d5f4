import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { SCOPES, type Scope } from '../auth/principal';
import { ConnectionType } from '../graphql/connection.model';
import { IdInputType, PayloadType } from '../graphql/relay-mutation';
import { graphqlEnum } from '../graphql/zod-graphql';
import type { ApiKeyView } from './tenant.schemas';
import { NodeModel } from '../graphql/node.model';

export const ScopeEnum = graphqlEnum('Scope', SCOPES, 'what an API key may do');

@ObjectType('ApiKey', { implements: () => [NodeModel] })
export class ApiKeyModel implements ApiKeyView {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'first characters of the key, to recognise it' }) prefix!: string;
  @Field(() => [ScopeEnum]) scopes!: Scope[];
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) revokedAt!: Date | null;
}

@ObjectType()
export class ApiKeyConnection extends ConnectionType(ApiKeyModel, 'ApiKey') {}

@ObjectType('CreatedApiKey')
export class CreatedApiKeyModel extends ApiKeyModel {
  @Field(() => String, { description: 'the key; shown only here, stored as a hash' }) apiKey!: string;
}

@ObjectType('CreatedTenant')
export class CreatedTenantModel {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'its first key (admin scope); shown only here' }) apiKey!: string;
}

@InputType()
export class CreateTenantInput {
  @Field(() => String) name!: string;
  @Field(() => Int, { nullable: true }) maxSites?: number | null;
  @Field(() => Int, { nullable: true }) maxUrls?: number | null;
}

@InputType()
export class CreateApiKeyInput {
  @Field(() => String) name!: string;
  @Field(() => [ScopeEnum], { nullable: true, description: 'default: read, write' }) scopes?: Scope[];
}

export const CreateTenantPayload = PayloadType('CreateTenant', 'tenant', () => CreatedTenantModel);
export const CreateApiKeyPayload = PayloadType('CreateApiKey', 'apiKey', () => CreatedApiKeyModel);
export const RevokeApiKeyPayload = PayloadType('RevokeApiKey', 'apiKey', () => ApiKeyModel);
export const RevokeApiKeyInput = IdInputType('RevokeApiKey', 'the key answers 401 from now on');
