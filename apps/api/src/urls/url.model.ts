import { ArgsType, Field, Float, GraphQLISODateTime, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionArgs, ConnectionType } from '../graphql/connection.model';
import { JsonScalar } from '../graphql/json.scalar';
import type { UrlView } from './url.schemas';

@ObjectType('Alternate')
export class AlternateModel {
  @Field(() => String) hreflang!: string;
  @Field(() => String) href!: string;
}

@ObjectType('Url')
export class UrlModel implements UrlView {
  @Field(() => String) loc!: string;
  @Field(() => String, { nullable: true }) section!: string | null;
  @Field(() => String, { nullable: true }) lastmod!: string | null;
  @Field(() => String, { nullable: true }) changefreq!: string | null;
  @Field(() => Float, { nullable: true }) priority!: number | null;
  @Field(() => [AlternateModel], { description: 'the hreflang cluster, this URL included' }) alternates!: {
    hreflang: string;
    href: string;
  }[];
  @Field(() => JsonScalar) images!: UrlView['images'];
  @Field(() => JsonScalar) videos!: UrlView['videos'];
  @Field(() => JsonScalar, { nullable: true }) news!: UrlView['news'];
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
}

@ObjectType()
export class UrlConnection extends ConnectionType(UrlModel, 'Url') {}

@ArgsType()
export class UrlFilterArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'only URLs whose loc starts with this' }) prefix?: string | null;
  @Field(() => String, { nullable: true, description: 'only this section ("" is the default section)' }) section?:
    string | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'only URLs changed at or after this instant' })
  changedSince?: Date | null;
}

@InputType()
export class AlternateInput {
  @Field(() => String) hreflang!: string;
  @Field(() => String) href!: string;
}

/** An entry as REST takes it; the ingest validates each one and reports failures by index. */
@InputType()
export class UrlInput {
  @Field(() => String) loc!: string;
  @Field(() => String, { nullable: true }) lastmod?: string;
  @Field(() => String, { nullable: true }) changefreq?: string;
  @Field(() => Float, { nullable: true }) priority?: number;
  @Field(() => String, { nullable: true }) section?: string;
  @Field(() => String, { nullable: true, description: "this URL's own language in its cluster" }) hreflang?: string;
  @Field(() => [AlternateInput], { nullable: true, description: 'the hreflang cluster; [] leaves it' })
  alternates?: AlternateInput[];
  @Field(() => [JsonScalar], { nullable: true }) images?: unknown[];
  @Field(() => [JsonScalar], { nullable: true }) videos?: unknown[];
  @Field(() => JsonScalar, { nullable: true }) news?: unknown;
}

@ObjectType('EntryError')
export class EntryErrorModel {
  @Field(() => Int) index!: number;
  @Field(() => String, { nullable: true }) loc?: string;
  @Field(() => String) field!: string;
  @Field(() => String) code!: string;
  @Field(() => String) message!: string;
}

@ObjectType('UpsertUrlsResult')
export class UpsertUrlsResultModel {
  @Field(() => Int, { description: 'valid entries stored (changed or already equal)' }) upserted!: number;
  @Field(() => Int, { description: 'URLs whose sitemap content changed' }) changed!: number;
  @Field(() => [EntryErrorModel]) errors!: EntryErrorModel[];
  @Field(() => [EntryErrorModel]) warnings!: EntryErrorModel[];
}

@ObjectType('DeleteUrlsResult')
export class DeleteUrlsResultModel {
  @Field(() => Int) deleted!: number;
  @Field(() => [String]) notFound!: string[];
}
