// The URL entry's extensions (alternates, images, videos, news) as GraphQL types, derived from
// the zod schemas the validator reads and the OpenAPI document is generated from.
import {
  alternateSchema,
  CHANGEFREQS,
  imageSchema,
  newsSchema,
  videoPlatformSchema,
  videoRestrictionSchema,
  videoSchema,
  videoUploaderSchema,
} from '@sitemaps/sitemap-xml';
import type { z } from 'zod';
import { graphqlEnum, typesFromZod, type ZodGraphqlNames } from '../graphql/zod-graphql';

export const ChangefreqEnum = graphqlEnum('Changefreq', CHANGEFREQS, 'how often the page is likely to change');

const names: ZodGraphqlNames = {
  objects: new Map<z.ZodType, string>([
    [alternateSchema, 'Alternate'],
    [imageSchema, 'Image'],
    [videoSchema, 'Video'],
    [videoRestrictionSchema, 'VideoRestriction'],
    [videoPlatformSchema, 'VideoPlatform'],
    [videoUploaderSchema, 'VideoUploader'],
    [newsSchema, 'News'],
  ]),
  enums: {
    [CHANGEFREQS.join('|')]: 'Changefreq',
    'allow|deny': 'VideoRelationship',
    'web|mobile|tv': 'VideoPlatformName',
  },
};

export const AlternateTypes = typesFromZod(alternateSchema, names);
export const ImageTypes = typesFromZod(imageSchema, names);
export const VideoTypes = typesFromZod(videoSchema, names);
export const NewsTypes = typesFromZod(newsSchema, names);
