import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType, PartialType } from '@nestjs/graphql';
import { ConnectionType } from '../graphql/connection.model';
import { VERIFICATION_STATUSES, type VerificationStatus } from '@sitemaps/domain';
import { IdInputType, PayloadType } from '../graphql/relay-mutation';
import { graphqlEnum } from '../graphql/zod-graphql';
import { ChangefreqEnum } from '../urls/url-entry.model';
import type { SiteVerificationView, SiteView } from './site.schemas';
import { NodeModel } from '../graphql/node.model';

export const VerificationStatusEnum = graphqlEnum(
  'VerificationStatus',
  VERIFICATION_STATUSES,
  'pending: not served until the hostname is proven; verified: served; taken: another account verified the hostname first',
);
export const SchemeEnum = graphqlEnum('Scheme', ['http', 'https'] as const);

@ObjectType('DnsRecord')
export class DnsRecordModel {
  @Field(() => String) type!: 'TXT';
  @Field(() => String) name!: string;
  @Field(() => String) value!: string;
}

@ObjectType('VerificationError')
export class VerificationErrorModel {
  @Field(() => String) code!: string;
  @Field(() => String) message!: string;
}

@ObjectType('SiteVerification')
export class SiteVerificationModel implements SiteVerificationView {
  @Field(() => VerificationStatusEnum) status!: VerificationStatus;
  @Field(() => String) token!: string;
  @Field(() => DnsRecordModel) dnsRecord!: DnsRecordModel;
  @Field(() => String) fileUrl!: string;
  @Field(() => GraphQLISODateTime, { nullable: true }) verifiedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) checkedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) nextCheckAt!: Date | null;
  @Field(() => VerificationErrorModel, { nullable: true }) error!: VerificationErrorModel | null;
}

@ObjectType('SectionShardSize')
export class SectionShardSizeModel {
  @Field(() => String, { description: '"" is the default section' }) section!: string;
  @Field(() => Int) shardSize!: number;
}

@InputType()
export class SectionShardSizeInput {
  @Field(() => String) section!: string;
  @Field(() => Int) shardSize!: number;
}

@ObjectType('Site', { implements: () => [NodeModel] })
export class SiteModel implements SiteView {
  @Field(() => ID) id!: string;
  @Field(() => String) hostname!: string;
  @Field(() => SchemeEnum) scheme!: SiteView['scheme'];
  @Field(() => ChangefreqEnum, { nullable: true }) defaultChangefreq!: SiteView['defaultChangefreq'];
  @Field(() => Float, { nullable: true }) defaultPriority!: number | null;
  @Field(() => String, { nullable: true, description: '5-field cron (UTC) for a scheduled full rebuild' })
  rebuildCron!: string | null;
  @Field(() => String, { nullable: true }) robotsTxt!: string | null;
  @Field(() => Int) cacheMaxAge!: number;
  @Field(() => Boolean) textSitemap!: boolean;
  @Field(() => Boolean) xslStylesheet!: boolean;
  @Field(() => Int, { nullable: true, description: 'URLs per sitemap file for new shards; null: 50,000' })
  shardSize!: number | null;
  @Field(() => [SectionShardSizeModel], { description: 'URLs per file by section, over shardSize' })
  sectionShardSizes!: SectionShardSizeModel[];
  @Field(() => Int, {
    nullable: true,
    description: 'days a changed shard may stay unread by every verified crawler before sitemap.stale; null: never',
  })
  staleAfterDays!: number | null;
  @Field(() => String) indexNowKey!: string;
  @Field(() => String) sitemapUrl!: string;
  @Field(() => String, { nullable: true }) crossSubmitRobotsLine!: string | null;
  @Field(() => SiteVerificationModel, { description: 'proof of the hostname; only verified sites are served' })
  verification!: SiteVerificationModel;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
}

@ObjectType()
export class SiteConnection extends ConnectionType(SiteModel, 'Site') {}

/** Field types only; ranges and formats are checked by the same zod schema as REST. */
@InputType()
export class CreateSiteInput {
  @Field(() => String) hostname!: string;
  @Field(() => SchemeEnum, { nullable: true }) scheme?: 'http' | 'https';
  @Field(() => ChangefreqEnum, { nullable: true }) defaultChangefreq?: string | null;
  @Field(() => Float, { nullable: true }) defaultPriority?: number | null;
  @Field(() => String, { nullable: true }) rebuildCron?: string | null;
  @Field(() => String, { nullable: true }) robotsTxt?: string | null;
  @Field(() => Boolean, { nullable: true }) robotsTxtNonStandard?: boolean;
  @Field(() => Int, { nullable: true }) cacheMaxAge?: number;
  @Field(() => Boolean, { nullable: true }) textSitemap?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'the index and shards name /sitemap.xsl' })
  xslStylesheet?: boolean;
  @Field(() => Int, { nullable: true, description: 'URLs per sitemap file for new shards (1-50,000); null: 50,000' })
  shardSize?: number | null;
  @Field(() => [SectionShardSizeInput], { nullable: true, description: 'replaces the whole list' })
  sectionShardSizes?: SectionShardSizeInput[];
  @Field(() => Int, { nullable: true, description: 'sitemap.stale after this many days unread (1-365); null: never' })
  staleAfterDays?: number | null;
}

@InputType()
export class UpdateSiteInput extends PartialType(CreateSiteInput) {
  @Field(() => ID, { description: 'the site to change' }) id!: string;
}

export const CreateSitePayload = PayloadType('CreateSite', 'site', () => SiteModel);
export const UpdateSitePayload = PayloadType('UpdateSite', 'site', () => SiteModel);
export const VerifySitePayload = PayloadType('VerifySite', 'site', () => SiteModel);
export const DeleteSitePayload = PayloadType('DeleteSite', 'deletedSiteId', () => ID);
export const VerifySiteInput = IdInputType('VerifySite', 'the site to check');
export const DeleteSiteInput = IdInputType('DeleteSite', 'the site to delete, with its URLs and sitemaps');
