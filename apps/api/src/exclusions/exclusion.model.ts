import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

export enum ExclusionKind {
  prefix = 'prefix',
  glob = 'glob',
  query = 'query',
}
registerEnumType(ExclusionKind, {
  name: 'ExclusionKind',
  description: "prefix: the path's start; glob: the whole path and query, * any run; query: a query parameter",
});

/** A rule as REST's `ExclusionRule`, its one argument under the field its kind names. */
@ObjectType('ExclusionRule')
export class ExclusionRuleModel {
  @Field(() => ExclusionKind) kind!: ExclusionKind;
  @Field(() => String, { nullable: true }) path?: string;
  @Field(() => String, { nullable: true }) pattern?: string;
  @Field(() => String, { nullable: true }) param?: string;
}

@ObjectType('RuleExclusion')
export class RuleExclusionModel {
  @Field(() => ExclusionRuleModel) rule!: ExclusionRuleModel;
  @Field(() => Int, { description: 'live URLs the rule matches now' }) excludedUrls!: number;
}

@ObjectType('Exclusions')
export class ExclusionsModel {
  @Field(() => [RuleExclusionModel]) rules!: RuleExclusionModel[];
  @Field(() => Int, { description: 'live URLs the client flagged excluded' }) flaggedUrls!: number;
}

@InputType()
export class ExclusionRuleInput {
  @Field(() => ExclusionKind) kind!: ExclusionKind;
  @Field(() => String, { nullable: true }) path?: string | null;
  @Field(() => String, { nullable: true }) pattern?: string | null;
  @Field(() => String, { nullable: true }) param?: string | null;
}

@InputType()
export class SetExclusionRulesInput {
  @Field(() => ID) siteId!: string;
  @Field(() => [ExclusionRuleInput], { description: 'replaces the whole set; [] clears it' })
  rules!: ExclusionRuleInput[];
}

@ObjectType('ExclusionChange')
export class ExclusionChangeModel {
  @Field(() => Int, { description: 'live URLs that left or re-entered the published files' }) urls!: number;
  @Field(() => Int, { description: 'shards to re-render' }) shards!: number;
}

@ObjectType('SetExclusionRulesPayload')
export class SetExclusionRulesPayload {
  @Field(() => ExclusionsModel) exclusions!: ExclusionsModel;
  @Field(() => ExclusionChangeModel) changed!: ExclusionChangeModel;
}

@ObjectType('UrlConflict')
export class UrlConflictModel {
  @Field(() => String) loc!: string;
  @Field(() => String, {
    description: 'ROBOTS_DISALLOWED, LASTMOD_IN_FUTURE, HREFLANG_TO_EXCLUDED, HREFLANG_TO_DISALLOWED',
  })
  code!: string;
  @Field(() => String) field!: string;
  @Field(() => String) message!: string;
}

@ObjectType('ConflictCount')
export class ConflictCountModel {
  @Field(() => String) code!: string;
  @Field(() => Int) count!: number;
}

@ObjectType('ConflictReport')
export class ConflictReportModel {
  @Field(() => Int) checkedUrls!: number;
  @Field(() => [ConflictCountModel]) counts!: ConflictCountModel[];
  @Field(() => Int) total!: number;
  @Field(() => [UrlConflictModel]) conflicts!: UrlConflictModel[];
  @Field(() => Boolean) truncated!: boolean;
}
