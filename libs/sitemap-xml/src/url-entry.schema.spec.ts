import { describe, expect, it } from 'vitest';
import { createRng, generateRawEntry } from './testing/entry-generator';
import { normalizeUrlEntry } from './url-entry.rules';
import { urlEntrySchema } from './url-entry.schema';

const ORIGIN = 'https://shop.example.com';

type Json = Record<string, unknown>;
/** The validator reads these values case-insensitively; the schemas name their canonical case. */
function canonicalCase(entry: Json): Json {
  const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
  const video = (v: Json): Json => ({
    ...v,
    ...(v.restriction
      ? { restriction: { ...(v.restriction as Json), relationship: lower((v.restriction as Json).relationship) } }
      : {}),
    ...(v.platform
      ? {
          platform: {
            relationship: lower((v.platform as Json).relationship),
            platforms: ((v.platform as Json).platforms as unknown[]).map(lower),
          },
        }
      : {}),
  });
  return {
    ...entry,
    ...(entry.changefreq ? { changefreq: lower(entry.changefreq) } : {}),
    ...(entry.videos ? { videos: (entry.videos as Json[]).map(video) } : {}),
  };
}

// The OpenAPI document and the typed client are generated from urlEntrySchema; the validator
// is hand-written. These keep them describing the same entries.
describe('urlEntrySchema and normalizeUrlEntry', () => {
  it('the schema accepts every generated entry the validator accepts (every extension and optional field)', () => {
    const rng = createRng(7);
    for (let i = 0; i < 2_000; i++) {
      const entry = generateRawEntry(rng, ORIGIN, i);
      expect(normalizeUrlEntry(entry, { origin: ORIGIN }).ok).toBe(true);
      const parsed = urlEntrySchema.safeParse(canonicalCase(entry));
      expect(parsed.error?.issues ?? [], JSON.stringify(entry)).toEqual([]);
    }
  });

  it.each([
    ['an unknown field', { loc: `${ORIGIN}/a`, colour: 'red' }, 'UNKNOWN_FIELD'],
    [
      'an unknown video field',
      {
        loc: `${ORIGIN}/a`,
        videos: [
          {
            thumbnailLoc: `${ORIGIN}/t.jpg`,
            title: 't',
            description: 'd',
            contentLoc: `${ORIGIN}/v.mp4`,
            colour: 'red',
          },
        ],
      },
      'UNKNOWN_FIELD',
    ],
    ['a changefreq outside the enum', { loc: `${ORIGIN}/a`, changefreq: 'fortnightly' }, 'INVALID_CHANGEFREQ'],
    ['a priority above 1', { loc: `${ORIGIN}/a`, priority: 1.5 }, 'INVALID_PRIORITY'],
    [
      'a video title over 100 characters',
      {
        loc: `${ORIGIN}/a`,
        videos: [
          { thumbnailLoc: `${ORIGIN}/t.jpg`, title: 'x'.repeat(101), description: 'd', contentLoc: `${ORIGIN}/v.mp4` },
        ],
      },
      'VIDEO_TITLE_TOO_LONG',
    ],
    [
      'news without a title',
      { loc: `${ORIGIN}/a`, news: { publicationName: 'T', publicationLanguage: 'en', publicationDate: '2024-05-01' } },
      'REQUIRED_FIELD',
    ],
  ])('both refuse %s', (_, entry, code) => {
    const result = normalizeUrlEntry(entry, { origin: ORIGIN });
    expect(result.ok ? [] : result.errors.map((error) => error.code)).toContain(code);
    expect(urlEntrySchema.safeParse(entry).success).toBe(false);
  });
});
