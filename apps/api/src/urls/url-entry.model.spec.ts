import { describe, expect, it } from 'vitest';
import {
  alternateSchema,
  imageSchema,
  newsSchema,
  RETIRED_IMAGE_FIELDS,
  RETIRED_NEWS_FIELDS,
  RETIRED_VIDEO_FIELDS,
  videoSchema,
} from '@sitemaps/sitemap-xml';
import { AlternateTypes, ImageTypes, NewsTypes, VideoTypes } from './url-entry.model';

describe('the URL extensions as GraphQL types', () => {
  it('have the fields of the zod schemas the validator reads, less the retired ones', () => {
    for (const [types, schema, retired] of [
      [AlternateTypes, alternateSchema, []],
      [ImageTypes, imageSchema, RETIRED_IMAGE_FIELDS],
      [VideoTypes, videoSchema, RETIRED_VIDEO_FIELDS],
      [NewsTypes, newsSchema, RETIRED_NEWS_FIELDS],
    ] as const) {
      const expected = Object.keys(schema.shape).filter((field) => !(retired as readonly string[]).includes(field));
      expect(types.fields).toEqual(expected);
    }
  });
});
