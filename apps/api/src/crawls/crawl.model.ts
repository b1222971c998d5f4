import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import type { CrawlInsightView } from './crawl.schemas';

type View = CrawlInsightView;

@ObjectType('CrawlerRead', { description: "a verified crawler's first and last read of the index" })
export class CrawlerReadModel {
  @Field(() => String) crawler!: View['crawlers'][number]['crawler'];
  @Field(() => GraphQLISODateTime) firstReadAt!: Date;
  @Field(() => GraphQLISODateTime) lastReadAt!: Date;
}

@ObjectType('CrawledFileRead')
export class CrawledFileReadModel {
  @Field(() => String) crawler!: string;
  @Field(() => GraphQLISODateTime) lastReadAt!: Date;
  @Field(() => Boolean, { description: 'read (200 or 304) since the file last changed' }) readSinceChange!: boolean;
}

@ObjectType('CrawledFile')
export class CrawledFileModel {
  @Field(() => String) path!: string;
  @Field(() => String, { description: 'index, shard or text' }) kind!: string;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'when the bytes at this path last changed' })
  modifiedAt!: Date | null;
  @Field(() => [CrawledFileReadModel]) reads!: CrawledFileReadModel[];
  @Field(() => [String], { description: 'crawlers that read the index but not this file since it changed' })
  waitingFor!: string[];
}

@ObjectType('CrawlLastChange')
export class CrawlLastChangeModel {
  @Field(() => GraphQLISODateTime) at!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) firstVerifiedReadAt!: Date | null;
  @Field(() => String, { nullable: true }) crawler!: string | null;
  @Field(() => Float, { nullable: true }) delaySeconds!: number | null;
}

@ObjectType('CrawlDay')
export class CrawlDayModel {
  @Field(() => String, { description: 'UTC date, YYYY-MM-DD' }) day!: string;
  @Field(() => String) crawler!: string;
  @Field(() => Boolean) verified!: boolean;
  @Field(() => Int) fetches!: number;
  @Field(() => Int) notModified!: number;
  @Field(() => Float) bytes!: number;
}

@ObjectType('CrawlError')
export class CrawlErrorModel {
  @Field(() => String) path!: string;
  @Field(() => Int) status!: number;
  @Field(() => String) crawler!: string;
  @Field(() => Boolean) verified!: boolean;
  @Field(() => Int) fetches!: number;
  @Field(() => GraphQLISODateTime) lastAt!: Date;
}

@ObjectType('CrawlInsight', { description: 'what search engines read of a site, and when' })
export class CrawlInsightModel {
  @Field(() => ID) siteId!: string;
  @Field(() => [CrawlerReadModel]) crawlers!: CrawlerReadModel[];
  @Field(() => [CrawledFileModel]) files!: CrawledFileModel[];
  @Field(() => CrawlLastChangeModel, { nullable: true }) lastChange!: CrawlLastChangeModel | null;
  @Field(() => [CrawlDayModel]) days!: CrawlDayModel[];
  @Field(() => [CrawlErrorModel]) errors!: CrawlErrorModel[];
}
