import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canonicalContent,
  canonicalJson,
  contentHash,
  linksJson,
  locHash,
  urlContentHash,
  type UrlContent,
} from './url-content';

// Stored content hashes must not change when their code gets faster: the fast
// forms are checked against the generic ones they replace.
describe('content hashing', () => {
  const contents: UrlContent[] = [
    { loc: 'https://a.example.com/', section: '' },
    {
      loc: 'https://a.example.com/é?q="x"&y=\\',
      section: 'blog',
      lastmod: '2024-01-01',
      changefreq: 'daily',
      priority: 0.5,
    },
    {
      loc: 'https://a.example.com/x',
      section: '',
      lastmod: undefined,
      alternates: undefined,
      images: null,
      news: undefined,
    },
    {
      loc: 'https://a.example.com/y',
      section: 'news',
      alternates: [
        { hreflang: 'de', href: 'https://a.example.com/de/y' },
        { hreflang: 'x-default', href: 'https://a.example.com/y' },
      ],
      images: [{ loc: 'https://a.example.com/i.png', title: 'T', caption: undefined }],
      videos: [{ title: 'V', tags: ['b', 'a'], restriction: { relationship: 'allow', countries: ['DE'] } }],
      news: { publication: { name: 'N', language: 'en' }, title: 'T', publicationDate: '2024-01-01' },
    },
    // Links with a key more than AlternateLink's, and a key UrlContent does not have.
    {
      loc: 'https://a.example.com/z',
      section: '',
      alternates: [{ hreflang: 'en', href: 'https://a.example.com/z', extra: 1 } as never],
    },
    { loc: 'https://a.example.com/w', section: '', unknown: 'kept' } as UrlContent,
  ];

  it('writes exactly the generic canonical JSON', () => {
    for (const content of contents) expect(canonicalContent(content)).toBe(canonicalJson(content));
  });

  it('hashes as sha256 of that JSON, and a loc as the first 16 bytes of sha256 of its text', () => {
    for (const content of contents)
      expect(contentHash(content)).toEqual(createHash('sha256').update(canonicalJson(content)).digest());
    expect(locHash('https://a.example.com/é')).toEqual(
      createHash('sha256').update('https://a.example.com/é').digest().subarray(0, 16),
    );
  });

  it('hashes a URL given as fields, section, lastmod and links exactly as the whole content', () => {
    const known = new Set([
      'loc',
      'section',
      'lastmod',
      'changefreq',
      'priority',
      'alternates',
      'images',
      'videos',
      'news',
    ]);
    const typed = contents.filter((content) => Object.keys(content).every((key) => known.has(key)));
    expect(typed.length).toBe(contents.length - 1);
    for (const content of typed) {
      const { section, lastmod, alternates, ...fields } = content;
      // The fields may carry a lastmod of their own (the platform's): only the one passed counts.
      const url = { ...fields, lastmod: '1999-01-01' };
      expect(urlContentHash(url, section, lastmod, alternates && linksJson(alternates)).toString('hex')).toBe(
        createHash('sha256')
          .update(canonicalJson({ ...content, alternates }))
          .digest('hex'),
      );
      if (alternates) expect(linksJson(alternates)).toBe(canonicalJson(alternates));
    }
    const links = linksJson([{ hreflang: 'de', href: 'https://a.example.com/de' }]);
    expect(urlContentHash({ loc: 'https://a.example.com/' }, '', undefined, undefined)).not.toEqual(
      urlContentHash({ loc: 'https://a.example.com/' }, '', undefined, links),
    );
  });

  it('quotes strings exactly as JSON.stringify, escapes included', () => {
    // Stored links and hashes come from any client: quotes, backslashes, controls, lone and paired
    // surrogates, and characters JSON leaves alone (U+2028, U+007F) must all come out the same.
    const tricky = [
      'plain',
      'a"b',
      'a\\b',
      'tab\there',
      'nul\u0000',
      '\u001f',
      '\u007f',
      '\u2028',
      'é',
      '\ud83d\ude00',
      'lone \ud83d',
      'lone \ude00',
      '',
    ];
    for (const text of tricky) {
      const links = [{ hreflang: text, href: `https://a.example.com/${text}` }];
      expect(linksJson(links)).toBe(canonicalJson(links));
      const content = { loc: `https://a.example.com/${text}`, section: text, lastmod: text, alternates: links };
      expect(urlContentHash({ loc: content.loc }, text, text, linksJson(links))).toEqual(contentHash(content));
    }
  });
});
