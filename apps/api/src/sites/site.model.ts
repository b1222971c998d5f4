import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType, PartialType } from '@nestjs/graphql';
import { ConnectionType } from '../graphql/connection.model';
import type { SiteView } from './site.schemas';

@ObjectType('Site')
export class SiteModel implements SiteView {
  @Field(() => ID) id!: string;
  @Field(() => String) hostname!: string;
  @Field(() => String) scheme!: string;
  @Field(() => String, { nullable: true }) defaultChangefreq!: string | null;
  @Field(() => Float, { nullable: true }) defaultPriority!: number | null;
  @Field(() => String, { nullable: true, description: '5-field cron (UTC) for a scheduled full rebuild' }) rebuildCron!: string | null;
  @Field(() => String, { nullable: true }) robotsTxt!: string | null;
  @Field(() => Int) cacheMaxAge!: number;
  @Field(() => Boolean) textSitemap!: boolean;
  @Field(() => String) indexNowKey!: string;
  @Field(() => String) sitemapUrl!: string;
  @Field(() => String, { nullable: true }) crossSubmitRobotsLine!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
}

@ObjectType()
export class SiteConnection extends ConnectionType(SiteModel, 'Site') {}

/** Field types only; ranges and formats are checked by the same zod schema as REST. */
@InputType()
export class CreateSiteInput {
  @Field(() => String) hostname!: string;
  @Field(() => String, { nullable: true, description: 'http or https' }) scheme?: 'http' | 'https';
  @Field(() => String, { nullable: true }) defaultChangefreq?: string | null;
  @Field(() => Float, { nullable: true }) defaultPriority?: number | null;
  @Field(() => String, { nullable: true }) rebuildCron?: string | null;
  @Field(() => String, { nullable: true }) robotsTxt?: string | null;
  @Field(() => Boolean, { nullable: true }) robotsTxtNonStandard?: boolean;
  @Field(() => Int, { nullable: true }) cacheMaxAge?: number;
  @Field(() => Boolean, { nullable: true }) textSitemap?: boolean;
}

@InputType()
export class UpdateSiteInput extends PartialType(CreateSiteInput) {}
