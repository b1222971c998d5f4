import { describe, expect, it } from 'vitest';
import { entryOfRawUrl } from './sitemap-entry.mapper';
import { readSitemapXml, type RawSitemapUrl } from './sitemap-xml.reader';

async function read(chunks: (string | Buffer)[]) {
  const { items, error } = readSitemapXml(
    'urlset',
    (async function* () {
      for (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    })(),
  );
  const urls: RawSitemapUrl[] = [];
  for await (const url of items) urls.push(url);
  return { urls, error: error() };
}

describe('readSitemapXml', () => {
  it('matches elements by local name whatever the prefix, and reads CDATA, entities and characters split across chunks', async () => {
    const xml = Buffer.from(
      '\uFEFF<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:i="http://www.google.com/schemas/sitemap-image/1.1"' +
        ' xmlns:v="http://www.google.com/schemas/sitemap-video/1.1">' +
        '<s:url><s:loc><![CDATA[https://a.example/é?x=1&y=2]]></s:loc><i:image><i:loc>https://cdn.example/1.jpg</i:loc></i:image>' +
        '<v:video><v:title>Fish &amp; chips 😀</v:title><v:restriction relationship="allow">DE FR</v:restriction><v:tag>a</v:tag><v:tag>b</v:tag></v:video>' +
        '</s:url></s:urlset>',
    );
    // Cut inside the é and inside the emoji: the decoder carries the partial bytes over.
    const cuts = [xml.indexOf(Buffer.from('é')) + 1, xml.indexOf(Buffer.from('😀')) + 2];
    const { urls, error } = await read([
      xml.subarray(0, cuts[0]),
      xml.subarray(cuts[0], cuts[1]),
      xml.subarray(cuts[1]),
    ]);
    expect(error).toBeUndefined();
    expect(urls).toEqual([
      {
        loc: 'https://a.example/é?x=1&y=2',
        links: [],
        images: [{ loc: 'https://cdn.example/1.jpg' }],
        videos: [
          {
            fields: { title: 'Fish & chips 😀', restriction: 'DE FR' },
            tags: ['a', 'b'],
            restrictionRelationship: 'allow',
          },
        ],
      },
    ]);
  });

  it("refuses a DTD's entities (no XXE, no expansion) and stops at the first error with its line and column", async () => {
    const xxe = await read([
      '<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY a "aaaa">]>\n<urlset>',
      '<url><loc>https://a.example/1</loc></url>\n<url><loc>&xxe;</loc></url><url><loc>&a;</loc></url></urlset>',
    ]);
    expect(xxe.urls.map((url) => url.loc)).toEqual(['https://a.example/1']);
    expect(xxe.error).toMatchObject({ line: 4, message: expect.stringMatching(/entity/i) });
  });

  it('keeps the entries of a file cut short and says where it ends', async () => {
    const { urls, error } = await read(['<urlset><url><loc>https://a.example/1</loc></url>\n<url><loc>https://a.exa']);
    expect(urls.map((url) => url.loc)).toEqual(['https://a.example/1']);
    expect(error).toMatchObject({ line: 2 });
  });
});

describe('entryOfRawUrl', () => {
  const raw = (video: Record<string, string>): RawSitemapUrl => ({
    loc: 'https://a.example/v',
    links: [],
    images: [],
    videos: [{ fields: { thumbnail_loc: 't', title: 't', description: 'd', ...video }, tags: [] }],
  });
  const flags = (entry: Record<string, unknown>) => {
    const [video] = entry.videos as Record<string, unknown>[];
    return [video!.familyFriendly, video!.requiresSubscription, video!.live];
  };

  it('reads yes and no in every case tYesNo allows, and more, trimmed; never another spelling', () => {
    expect(
      flags(entryOfRawUrl(raw({ family_friendly: 'YES', requires_subscription: 'Yes', live: ' yes\n' })).entry),
    ).toEqual([true, true, true]);
    expect(flags(entryOfRawUrl(raw({ family_friendly: 'NO', requires_subscription: 'No', live: 'nO' })).entry)).toEqual(
      [false, false, false],
    );
    const unknown = entryOfRawUrl(raw({ family_friendly: 'true', requires_subscription: '1', live: 'y' }));
    expect(flags(unknown.entry)).toEqual([undefined, undefined, undefined]);
    expect(unknown.warnings.map((w) => [w.code, w.field])).toEqual([
      ['INVALID_YES_NO', 'videos[0].familyFriendly'],
      ['INVALID_YES_NO', 'videos[0].requiresSubscription'],
      ['INVALID_YES_NO', 'videos[0].live'],
    ]);
  });

  it('reads numbers as xsd:decimal and whole numbers spell them, not as parseFloat would', () => {
    const read = (priority: string, duration: string) => {
      const { entry, warnings } = entryOfRawUrl({ ...raw({ duration }), priority });
      return [entry.priority, (entry.videos as Record<string, unknown>[])[0]!.duration, warnings.map((w) => w.code)];
    };
    expect(read(' 0.5 ', '60')).toEqual([0.5, 60, []]);
    expect(read('.5', '+60')).toEqual([0.5, 60, []]);
    expect(read('0.5abc', '60s')).toEqual([undefined, undefined, ['INVALID_PRIORITY', 'INVALID_DURATION']]);
    expect(read('1e-1', '6.0')).toEqual([undefined, undefined, ['INVALID_PRIORITY', 'INVALID_DURATION']]);
  });
});
