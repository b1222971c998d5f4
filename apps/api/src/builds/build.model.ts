import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionType } from '../graphql/connection.model';
import { JsonScalar } from '../graphql/json.scalar';
import { PayloadType } from '../graphql/relay-mutation';
import { graphqlEnum } from '../graphql/zod-graphql';
import { buildView, type BuildView } from './build.schemas';
import { NodeModel } from '../graphql/node.model';

export const BuildStatusEnum = graphqlEnum('BuildStatus', buildView.shape.status.options);

@ObjectType('Build', { implements: () => [NodeModel] })
export class BuildModel implements BuildView {
  @Field(() => ID) id!: string;
  @Field(() => ID) siteId!: string;
  @Field(() => BuildStatusEnum) status!: BuildView['status'];
  @Field(() => Boolean) full!: boolean;
  @Field(() => String, { description: 'api | schedule | change' }) trigger!: string;
  @Field(() => Int) shardsRendered!: number;
  @Field(() => Int) shardsSkipped!: number;
  @Field(() => Int) urlCount!: number;
  @Field(() => Float) byteSize!: number;
  @Field(() => JsonScalar, { nullable: true, description: 'stage durations in milliseconds' }) timings!: unknown;
  @Field(() => JsonScalar, {
    nullable: true,
    description: 'IndexNow submissions after the publish, one entry per request',
  })
  indexNow!: unknown;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) startedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) finishedAt!: Date | null;
}

@ObjectType()
export class BuildConnection extends ConnectionType(BuildModel, 'Build') {}

@InputType()
export class CreateBuildInput {
  @Field(() => ID) siteId!: string;
  @Field(() => Boolean, { defaultValue: false, description: 're-render every shard, not only dirty ones' })
  full!: boolean;
}

export const CreateBuildPayload = PayloadType('CreateBuild', 'build', () => BuildModel);
