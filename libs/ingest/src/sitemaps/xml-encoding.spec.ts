import { describe, expect, it } from 'vitest';
import { readSitemapXml, type RawSitemapUrl } from './sitemap-xml.reader';
import { sniffXmlEncoding, UnsupportedEncodingError } from './xml-encoding';

const declaration = (encoding: string) => Buffer.from(`<?xml version="1.0" encoding="${encoding}"?>\n<urlset/>`);

describe('sniffXmlEncoding', () => {
  it('finds the encoding as XML says: BOM, then UTF-16 without one, then the declaration, else UTF-8', () => {
    expect(sniffXmlEncoding(Buffer.from([0xef, 0xbb, 0xbf, 0x3c]))).toBe('utf-8');
    expect(sniffXmlEncoding(Buffer.from([0xff, 0xfe, 0x3c, 0x00]))).toBe('utf-16le');
    expect(sniffXmlEncoding(Buffer.from([0xfe, 0xff, 0x00, 0x3c]))).toBe('utf-16be');
    expect(sniffXmlEncoding(Buffer.from('<?xml version="1.0"?>', 'utf16le'))).toBe('utf-16le');
    expect(sniffXmlEncoding(declaration('ISO-8859-1'))).toBe('windows-1252');
    expect(sniffXmlEncoding(declaration('windows-1252'))).toBe('windows-1252');
    expect(sniffXmlEncoding(declaration('UTF-8'))).toBe('utf-8');
    expect(sniffXmlEncoding(Buffer.from("<?xml version='1.0' encoding='shift_jis'?>"))).toBe('shift_jis');
    expect(sniffXmlEncoding(Buffer.from('<urlset/>'))).toBe('utf-8');
    // Declared UTF-16 but written in single bytes (no BOM): the bytes are what counts.
    expect(sniffXmlEncoding(declaration('UTF-16'))).toBe('utf-8');
  });

  it('refuses an encoding no decoder knows', () => {
    expect(() => sniffXmlEncoding(declaration('x-klingon'))).toThrow(UnsupportedEncodingError);
  });
});

describe('readSitemapXml: encodings and unknown elements', () => {
  async function read(body: Buffer, encoding: string) {
    const half = Math.floor(body.length / 2) | 1;
    const read = readSitemapXml(
      'urlset',
      (async function* () {
        // Cut mid-character for UTF-16: the decoder carries the odd byte over.
        yield body.subarray(0, half);
        yield body.subarray(half);
      })(),
      encoding,
    );
    const urls: RawSitemapUrl[] = [];
    for await (const url of read.items) urls.push(url);
    return { urls, error: read.error(), unknown: read.unknown() };
  }

  it('reads UTF-16 and windows-1252 text as the characters it encodes', async () => {
    const xml =
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/é€</loc></url></urlset>';
    const utf16 = await read(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]), 'utf-16le');
    expect(utf16.urls.map((u) => u.loc)).toEqual(['https://a.example/é€']);
    const cp1252 = Buffer.from(xml.replace('€', '\u0080'), 'latin1');
    expect((await read(cp1252, 'windows-1252')).urls.map((u) => u.loc)).toEqual(['https://a.example/é€']);
  });

  it("notes elements of the file's own namespace the protocol lacks, once each, and not extensions'", async () => {
    const xml = Buffer.from(
      '<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:x="urn:ext">\n' +
        '<s:url><s:loc>https://a.example/1</s:loc><s:weight>1</s:weight><x:weight>1</x:weight></s:url>\n' +
        '<s:comment>no</s:comment>\n' +
        '<s:url><s:loc>https://a.example/2</s:loc><s:weight>2</s:weight><weight>3</weight></s:url>\n' +
        '<s:url xmlns:s="urn:redeclared"><s:loc>https://a.example/3</s:loc><s:odd/></s:url>\n' +
        '</s:urlset>',
    );
    const { urls, unknown } = await read(xml, 'utf-8');
    expect(urls).toHaveLength(3);
    expect(unknown).toEqual([
      { name: 'weight', parent: 'url', line: 2 },
      { name: 'comment', parent: 'urlset', line: 3 },
    ]);
  });
});
