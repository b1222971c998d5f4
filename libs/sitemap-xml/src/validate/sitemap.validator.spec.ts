import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderSitemapIndex } from '../sitemap-index.writer';
import { renderTextSitemap } from '../text-sitemap.writer';
import { normalizeUrlEntry } from '../url-entry.rules';
import { renderUrlsetFiles } from '../urlset.writer';
import { validateSitemapFile, validateSitemapSet, formatProblem, type FileReport } from './sitemap.validator';

const ORIGIN = 'https://shop.example.com';
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';

function shard(count: number): Buffer {
  const urls = Array.from({ length: count }, (_, i) => {
    const result = normalizeUrlEntry(
      {
        loc: `${ORIGIN}/p/${i}`,
        lastmod: '2026-11-24',
        alternates: [
          { hreflang: 'en', href: `${ORIGIN}/p/${i}` },
          { hreflang: 'de', href: `https://shop.example.de/p/${i}` },
        ],
        images: [{ loc: `${ORIGIN}/i/${i}.jpg` }],
      },
      { origin: ORIGIN },
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.url;
  });
  const files = renderUrlsetFiles(urls);
  expect(files).toHaveLength(1);
  return files[0]!.xml;
}

const rules = (report: FileReport) => report.problems.map((p) => [p.rule, p.line]);

describe('validateSitemapFile', () => {
  it('passes a rendered shard of 50,000 URLs with alternates and images, plain and gzipped', async () => {
    const xml = shard(50_000);
    const plain = await validateSitemapFile('shard.xml', xml);
    expect(plain.problems.map(formatProblem)).toEqual([]);
    expect(plain).toMatchObject({ kind: 'urlset', entries: 50_000, bytes: xml.length });
    const zipped = await validateSitemapFile('shard.xml.gz', gzipSync(xml));
    expect(zipped.problems).toEqual([]);
    expect(zipped.bytes).toBe(xml.length);
  }, 120_000);

  it('names the line of a schema error and of a document that is not well-formed', async () => {
    const invalid = await validateSitemapFile(
      'a.xml',
      Buffer.from(`${HEAD}<url><loc>${ORIGIN}/</loc>\n<priority>1.5</priority></url>\n</urlset>`),
    );
    expect(rules(invalid)).toEqual([['xsd', 4]]);
    expect(invalid.problems[0]!.message).toContain('priority');
    const broken = await validateSitemapFile(
      'b.xml',
      Buffer.from(`${HEAD}<url><loc>${ORIGIN}/a&b</loc></url>\n</urlset>`),
    );
    expect(broken.problems[0]).toMatchObject({ rule: 'xsd', line: 3 });
    expect(formatProblem(broken.problems[0]!)).toMatch(/^b\.xml:3: \[xsd\] /);
  });

  it('refuses more than 50,000 URLs and more than 50 MiB, naming the rule', async () => {
    const many = `${HEAD}${`<url><loc>${ORIGIN}/x</loc></url>\n`.repeat(50_001)}</urlset>`;
    const report = await validateSitemapFile('many.xml', Buffer.from(many));
    expect(rules(report)).toEqual([['max-urls', 50_003]]);
    // Over 50 MiB, nothing else is looked at (the schema error on line 3 included): no schema work
    // for a file that cannot be valid, plain or gzipped.
    const big = Buffer.from(
      `${HEAD}<url><loc>${ORIGIN}/</loc><priority>7</priority></url>\n${`<!--${'x'.repeat(1_000)}-->\n`.repeat(52_500)}</urlset>`,
    );
    for (const [name, content] of [
      ['big.xml.gz', gzipSync(big)],
      ['big.xml', big],
    ] as const) {
      const report = await validateSitemapFile(name, content);
      expect(rules(report), name).toEqual([['max-bytes', undefined]]);
      expect(report.entries, name).toBe(0);
    }
    // A bomb stops expanding at the limit: 256 MiB of spaces in 256 KB of gzip.
    const bomb = gzipSync(Buffer.alloc(256 * 1024 * 1024, 0x20));
    expect(rules(await validateSitemapFile('bomb.xml.gz', bomb))).toEqual([['max-bytes', undefined]]);
  }, 120_000);

  it('gives a line only where the document has one: an error inside an entity has none', async () => {
    const report = await validateSitemapFile(
      'entity.xml',
      Buffer.from(
        '<!DOCTYPE urlset [<!ENTITY a "&b;"><!ENTITY b "<">]>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>&a;</url></urlset>',
      ),
    );
    expect(report.problems.length).toBeGreaterThan(0);
    for (const problem of report.problems) {
      expect(problem.rule).toBe('xsd');
      if ('line' in problem) expect(Number.isInteger(problem.line), JSON.stringify(problem)).toBe(true);
    }
  });

  it('refuses a <loc> that is too long, relative or on another host, with its line', async () => {
    const long = `${ORIGIN}/${'a'.repeat(2_100)}`;
    const xml = `${HEAD}<url><loc>${ORIGIN}/</loc></url>\n<url><loc>${long}</loc></url>\n<url><loc>/relative/page</loc></url>\n<url><loc>https://other.example.org/</loc></url>\n</urlset>`;
    const report = await validateSitemapFile('locs.xml', Buffer.from(xml));
    // The XSD agrees on the length (maxLength 2048) and says so too; the relative <loc> is also too short for it.
    expect(report.problems.filter((p) => p.rule !== 'xsd').map((p) => [p.rule, p.line])).toEqual([
      ['loc-length', 4],
      ['loc-absolute', 5],
      ['one-host', 6],
    ]);
  });

  it('checks the host it is given, and says what is not a sitemap', async () => {
    const report = await validateSitemapFile(
      'a.xml',
      Buffer.from(`${HEAD}<url><loc>${ORIGIN}/</loc></url>\n</urlset>`),
      { host: 'www.example.com' },
    );
    expect(rules(report)).toEqual([['one-host', 3]]);
    expect(rules(await validateSitemapFile('page.html', Buffer.from('<html><body>hi</body></html>')))).toEqual([
      ['not-a-sitemap', undefined],
    ]);
    expect(rules(await validateSitemapFile('bad.gz', Buffer.from([0x1f, 0x8b, 1, 2, 3])))).toEqual([
      ['gzip', undefined],
    ]);
  });
});

describe('validateSitemapFile: text sitemaps and schemes', () => {
  it('reads a text sitemap, as the platform writes its sitemap.txt, with the same rules', async () => {
    const text = renderTextSitemap([`${ORIGIN}/a`, `${ORIGIN}/b?x=1&y=2`, `${ORIGIN}/caf\u00e9`]);
    const report = await validateSitemapFile('sitemap.txt', Buffer.from(text));
    expect(report).toMatchObject({ kind: 'text', entries: 3, problems: [] });
    expect((await validateSitemapFile('sitemap.txt.gz', gzipSync(text))).problems).toEqual([]);
    const bad = [
      `${ORIGIN}/a`,
      '',
      `${ORIGIN}/${'a'.repeat(2_100)}`,
      '/relative',
      `${ORIGIN}/with space`,
      'https://other.example.org/',
      'http://shop.example.com/insecure',
    ].join('\n');
    expect(rules(await validateSitemapFile('bad.txt', Buffer.from(bad)))).toEqual([
      ['loc-length', 3],
      ['loc-absolute', 4],
      ['loc-absolute', 5],
      ['one-host', 6],
      ['one-scheme', 7],
    ]);
    expect(rules(await validateSitemapFile('latin1.txt', Buffer.from(`${ORIGIN}/caf\xe9\n`, 'latin1')))).toEqual([
      ['text-encoding', undefined],
    ]);
  });

  it('refuses a file that mixes http and https, or differs from the scheme it is served with', async () => {
    const mixed = `${HEAD}<url><loc>${ORIGIN}/a</loc></url>\n<url><loc>http://shop.example.com/b</loc></url>\n</urlset>`;
    expect(rules(await validateSitemapFile('mixed.xml', Buffer.from(mixed)))).toEqual([['one-scheme', 4]]);
    const http = `${HEAD}<url><loc>http://shop.example.com/a</loc></url>\n</urlset>`;
    expect(rules(await validateSitemapFile('a.xml', Buffer.from(http)))).toEqual([]);
    expect(rules(await validateSitemapFile('a.xml', Buffer.from(http), { url: `${ORIGIN}/sitemap.xml` }))).toEqual([
      ['one-scheme', 3],
    ]);
    // Served from another host (cross-submission): only the file's own consistency counts.
    expect(
      rules(await validateSitemapFile('a.xml', Buffer.from(http), { url: 'https://sitemaps.example.net/s.xml' })),
    ).toEqual([]);
  });
});

describe('validateSitemapSet', () => {
  it('follows an index to every sitemap it lists and refuses a nested index, naming the index line', async () => {
    const files: Record<string, Buffer> = {
      [`${ORIGIN}/sitemaps/a.xml`]: shard(3),
      [`${ORIGIN}/sitemaps/nested.xml`]: Buffer.from(renderSitemapIndex([{ loc: `${ORIGIN}/sitemaps/a.xml` }])),
    };
    const index = renderSitemapIndex([
      { loc: `${ORIGIN}/sitemaps/a.xml` },
      { loc: `${ORIGIN}/sitemaps/nested.xml` },
      { loc: `${ORIGIN}/sitemaps/missing.xml` },
    ]);
    const admitted: number[] = [];
    let released = 0;
    const reports = await validateSitemapSet(
      { name: 'index.xml', content: Buffer.from(index) },
      {
        follow: true,
        concurrency: 1,
        admit: async (bytes) => {
          admitted.push(bytes);
          return () => void released++;
        },
        load: async (loc) => {
          const content = files[loc];
          if (!content) throw new Error('404 Not Found');
          return { name: loc, content };
        },
      },
    );
    expect(reports.map((r) => [r.file, r.kind])).toEqual([
      ['index.xml', 'sitemapindex'],
      [`${ORIGIN}/sitemaps/a.xml`, 'urlset'],
      [`${ORIGIN}/sitemaps/nested.xml`, 'sitemapindex'],
    ]);
    const problems = reports.flatMap((r) => r.problems).map((p) => [p.file, p.rule]);
    expect(problems).toEqual(
      expect.arrayContaining([
        ['index.xml', 'index-nested'],
        ['index.xml', 'fetch'],
      ]),
    );
    expect(problems).toHaveLength(2);
    // Each file's schema pass waited for room of its uncompressed size, and gave it back.
    expect(admitted).toEqual(reports.map((r) => r.bytes));
    expect(released).toBe(admitted.length);
  });
});
