import { ArgsType, Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { ConnectionArgs, ConnectionType } from '../graphql/connection.model';
import { AlternateTypes, ChangefreqEnum, ImageTypes, NewsTypes, VideoTypes } from './url-entry.model';
import type { UrlView } from './url.schemas';

@ObjectType('Url')
export class UrlModel implements UrlView {
  @Field(() => String) loc!: string;
  @Field(() => String, { nullable: true }) section!: string | null;
  @Field(() => String, { nullable: true }) lastmod!: string | null;
  @Field(() => ChangefreqEnum, { nullable: true }) changefreq!: UrlView['changefreq'];
  @Field(() => Float, { nullable: true }) priority!: number | null;
  @Field(() => [AlternateTypes.output], { description: 'the hreflang cluster, this URL included' })
  alternates!: UrlView['alternates'];
  @Field(() => [ImageTypes.output]) images!: UrlView['images'];
  @Field(() => [VideoTypes.output]) videos!: UrlView['videos'];
  @Field(() => NewsTypes.output, { nullable: true }) news!: UrlView['news'];
  @Field(() => Boolean, { description: "kept out of every published file, by its flag or the site's exclusion rules" })
  excluded!: boolean;
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
  @Field(() => Boolean, { nullable: true, description: 'only excluded URLs (true), or only published ones (false)' })
  excluded?: boolean | null;
}

/**
 * An entry as REST takes it, with the extensions typed from the same zod schemas (Google's retired
 * extension fields, which REST accepts with a warning, have no GraphQL field); the ingest validates
 * each entry and reports failures by index.
 */
@InputType()
export class UrlInput {
  @Field(() => String) loc!: string;
  @Field(() => String, { nullable: true }) lastmod?: string;
  @Field(() => ChangefreqEnum, { nullable: true }) changefreq?: string;
  @Field(() => Float, { nullable: true }) priority?: number;
  @Field(() => String, { nullable: true }) section?: string;
  @Field(() => String, { nullable: true, description: "this URL's own language in its cluster" }) hreflang?: string;
  @Field(() => [AlternateTypes.input], { nullable: true, description: 'the hreflang cluster; [] leaves it' })
  alternates?: unknown[];
  @Field(() => [ImageTypes.input], { nullable: true }) images?: unknown[];
  @Field(() => [VideoTypes.input], { nullable: true }) videos?: unknown[];
  @Field(() => NewsTypes.input, { nullable: true }) news?: unknown;
  @Field(() => Boolean, {
    nullable: true,
    description: 'true: stored but in no published file; false: published again; absent: left as it is',
  })
  excluded?: boolean;
}

@ObjectType('EntryError')
export class EntryErrorModel {
  @Field(() => Int) index!: number;
  @Field(() => String, { nullable: true }) loc?: string;
  @Field(() => String) field!: string;
  @Field(() => String) code!: string;
  @Field(() => String) message!: string;
}

@InputType()
export class UpsertUrlsInput {
  @Field(() => ID) siteId!: string;
  @Field(() => [UrlInput], { description: 'up to 10,000 entries, upserted by loc' }) entries!: UrlInput[];
}

@InputType()
export class DeleteUrlsInput {
  @Field(() => ID) siteId!: string;
  @Field(() => [String]) locs!: string[];
}

/** The URL batches' payloads are their outcome, as REST answers it (they change no single object). */
@ObjectType('UpsertUrlsPayload')
export class UpsertUrlsPayload {
  @Field(() => Int, { description: 'valid entries stored (changed or already equal)' }) upserted!: number;
  @Field(() => Int, { description: 'URLs whose sitemap content changed' }) changed!: number;
  @Field(() => [EntryErrorModel]) errors!: EntryErrorModel[];
  @Field(() => [EntryErrorModel]) warnings!: EntryErrorModel[];
}

@ObjectType('DeleteUrlsPayload')
export class DeleteUrlsPayload {
  @Field(() => Int) deleted!: number;
  @Field(() => [String]) notFound!: string[];
}
