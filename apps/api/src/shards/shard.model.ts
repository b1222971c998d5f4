import { Field, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionType } from '../graphql/connection.model';
import type { ShardView } from './shard.schemas';

@ObjectType('Shard')
export class ShardModel implements ShardView {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) section!: string | null;
  @Field(() => Int) ordinal!: number;
  @Field(() => String, { description: "the shard's file on the site's host" }) path!: string;
  @Field(() => Int) urlCount!: number;
  @Field(() => Int) byteSize!: number;
  @Field(() => Boolean) dirty!: boolean;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
}

@ObjectType()
export class ShardConnection extends ConnectionType(ShardModel, 'Shard') {}
